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
  error(title: string, detail?: unknown) {
    const description = detail === undefined ? undefined : errorMessage(detail);
    toast.error(title, { description, duration: 10_000, closeButton: true });
  },
};
