import { toast } from 'sonner';
import { errorMessage } from './api';

/**
 * Toasts with the spec's titles. Errors stay 10 s and have a close button so they can be read;
 * success notes go after 4 s.
 */
export const notify = {
  success(title: string, description?: string) {
    toast.success(title, { description, duration: 4000 });
  },
  info(title: string, description?: string) {
    toast.info(title, { description, duration: 4000 });
  },
  /** Saved, but with something to act on (a machine past its calibration): kept as long as an error. */
  warning(title: string, description?: string) {
    toast.warning(title, { description, duration: 10_000, closeButton: true });
  },
  error(title: string, detail?: unknown) {
    const description = detail === undefined ? undefined : errorMessage(detail);
    toast.error(title, { description, duration: 10_000, closeButton: true });
  },
};
