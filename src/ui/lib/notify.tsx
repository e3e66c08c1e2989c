import { lazy, Suspense, useEffect } from 'react';
import type { ExternalToast } from 'sonner';
import { errorMessage } from './api';

/**
 * Toasts with the spec's titles. Errors stay 10 s and have a close button so they can be read;
 * success notes go after 4 s.
 *
 * The toast library (sonner) is not part of the first JavaScript a browser loads: `ToastHost`
 * loads it after the first screen is drawn, and a toast asked for before then waits for it.
 */
type Kind = 'success' | 'info' | 'warning' | 'error';

let hostReady: () => void = () => undefined;
const ready = new Promise<void>((resolve) => {
  hostReady = resolve;
});

function show(kind: Kind, title: string, options: ExternalToast): void {
  void Promise.all([import('sonner'), ready]).then(([{ toast }]) => toast[kind](title, options));
}

export const notify = {
  success(title: string, description?: string) {
    show('success', title, { description, duration: 4000 });
  },
  info(title: string, description?: string) {
    show('info', title, { description, duration: 4000 });
  },
  /** Saved, but with something to act on (a machine past its calibration): kept as long as an error. */
  warning(title: string, description?: string) {
    show('warning', title, { description, duration: 10_000, closeButton: true });
  },
  error(title: string, detail?: unknown) {
    const description = detail === undefined ? undefined : errorMessage(detail);
    show('error', title, { description, duration: 10_000, closeButton: true });
  },
};

const Toaster = lazy(() =>
  import('sonner').then(({ Toaster: SonnerToaster }) => ({
    default: function LabToaster() {
      useEffect(() => hostReady(), []);
      return <SonnerToaster position="bottom-right" richColors toastOptions={{ className: 'text-sm' }} />;
    },
  })),
);

/** Where toasts appear; rendered once by the app's root. */
export function ToastHost() {
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
