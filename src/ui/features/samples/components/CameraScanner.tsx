import { useEffect, useRef, useState } from 'react';
import { Loader2 } from 'lucide-react';
import { notify } from '@/lib/notify';

/** The Shape Detection API's BarcodeDetector (Chromium, Android, Safari 17+); not in TypeScript's DOM lib yet. */
interface DetectedBarcode {
  rawValue: string;
  format: string;
}
interface BarcodeDetectorInstance {
  detect(source: CanvasImageSource): Promise<DetectedBarcode[]>;
}
interface BarcodeDetectorClass {
  new (options?: { formats?: string[] }): BarcodeDetectorInstance;
  getSupportedFormats?: () => Promise<string[]>;
}

function barcodeDetectorClass(): BarcodeDetectorClass | null {
  const ctor = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  return typeof ctor === 'function' ? ctor : null;
}

/** Code 128 is on the tube label, QR in the barcode dialog; both carry the barcode text. */
const WANTED_FORMATS = ['code_128', 'qr_code'];
/** How often a frame is checked: often enough to feel instant, rare enough to spare a phone's battery. */
const SCAN_INTERVAL_MS = 250;

export function cameraErrorToast(): void {
  notify.error('Camera Error', 'Unable to access camera. Please use manual input.');
}

export interface CameraScannerProps {
  /** A code was read; the camera stops. */
  onDetected: (code: string) => void;
  /** The camera or the detector is not available: the caller falls back to manual input. */
  onUnavailable: () => void;
}

/**
 * Camera scanning: the rear camera (ideal 1280x720, spec 9) through getUserMedia, frames read by
 * the browser's BarcodeDetector. Without either, the spec's Camera Error and a manual fallback.
 */
export function CameraScanner({ onDetected, onUnavailable }: CameraScannerProps) {
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<'starting' | 'scanning'>('starting');
  // The parent passes inline callbacks; the effect below must run once per mount, not per render.
  const cb = useRef({ onDetected, onUnavailable });
  useEffect(() => {
    cb.current = { onDetected, onUnavailable };
  });

  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setInterval> | undefined;
    let stopped = false;
    const stop = () => {
      stopped = true;
      if (timer) clearInterval(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
    const fail = () => {
      if (stopped) return;
      stop();
      cameraErrorToast();
      cb.current.onUnavailable();
    };

    const start = async () => {
      const Detector = barcodeDetectorClass();
      if (!Detector || !navigator.mediaDevices?.getUserMedia) return fail();
      let detector: BarcodeDetectorInstance;
      try {
        const supported = (await Detector.getSupportedFormats?.()) ?? WANTED_FORMATS;
        const formats = WANTED_FORMATS.filter((f) => supported.includes(f));
        if (!formats.length) return fail();
        detector = new Detector({ formats });
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
          audio: false,
        });
      } catch {
        return fail();
      }
      if (stopped || !video.current) {
        stream.getTracks().forEach((t) => t.stop());
        return;
      }
      video.current.srcObject = stream;
      await video.current.play().catch(() => undefined);
      setState('scanning');
      notify.success('Camera Started', 'Point the camera at the sample barcode');
      let busy = false;
      timer = setInterval(() => {
        const v = video.current;
        if (busy || !v || v.readyState < 2) return;
        busy = true;
        detector
          .detect(v)
          .then((found) => {
            const code = found.find((b) => b.rawValue.trim())?.rawValue;
            if (code && !stopped) {
              stop();
              cb.current.onDetected(code);
            }
          })
          .catch(() => undefined)
          .finally(() => {
            busy = false;
          });
      }, SCAN_INTERVAL_MS);
    };
    void start();
    return stop;
  }, []);

  return (
    <div className="relative overflow-hidden rounded-md bg-slate-900">
      <video ref={video} muted playsInline aria-label="Camera preview" className="aspect-video w-full object-cover" />
      {/* The aiming box: where the label should sit. */}
      <div className="pointer-events-none absolute inset-x-[12%] top-1/2 h-1/3 -translate-y-1/2 rounded border-2 border-white/80" />
      <p
        role="status"
        className="absolute inset-x-0 bottom-0 bg-slate-900/70 px-3 py-1.5 text-center text-xs text-white"
      >
        {state === 'starting' ? (
          <span className="inline-flex items-center gap-1.5">
            <Loader2 className="size-3.5 animate-spin" aria-hidden="true" /> Starting camera...
          </span>
        ) : (
          'Scanning: hold the barcode inside the box'
        )}
      </p>
    </div>
  );
}
