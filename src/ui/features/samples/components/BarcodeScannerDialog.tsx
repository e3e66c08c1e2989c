import { useState, type ReactNode } from 'react';
import { Camera, Keyboard, ScanBarcode } from 'lucide-react';
import type { Sample } from '@shared/schemas/samples';
import { Button, Dialog } from '@/components';
import { cn } from '@/lib/cn';
import { useBarcodeLookup } from '../useBarcodeLookup';
import { BarcodeEntry } from './BarcodeEntry';
import { CameraScanner } from './CameraScanner';

export type ScannerMode = 'manual' | 'camera';

/**
 * The pages' Scan Barcode button and the scanner it opens: a sample found closes the scanner and
 * goes to `onFound` (the page shows its barcode). `open`: the scanner is showing.
 */
export function useScanBarcode(onFound: (sample: Sample) => void) {
  const [open, setOpen] = useState(false);
  return {
    open,
    button: (
      <Button variant="outline" onClick={() => setOpen(true)}>
        <ScanBarcode />
        Scan Barcode
      </Button>
    ),
    dialog: (
      <BarcodeScannerDialog
        open={open}
        onOpenChange={setOpen}
        onFound={(s) => {
          setOpen(false);
          onFound(s);
        }}
      />
    ),
  };
}

export interface BarcodeScannerDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** A sample was found: the caller closes this and shows the sample's barcode dialog. */
  onFound: (sample: Sample) => void;
}

/**
 * Barcode Scanner dialog (spec): manual entry (a hand scanner types into the focused field and
 * presses Enter, so it works here too) or the camera. Camera trouble falls back to manual.
 */
export function BarcodeScannerDialog({ open, onOpenChange, onFound }: BarcodeScannerDialogProps) {
  const [mode, setMode] = useState<ScannerMode>('manual');
  const { lookup, pending } = useBarcodeLookup(onFound);

  const close = (o: boolean) => {
    if (!o) setMode('manual');
    onOpenChange(o);
  };

  const tab = (m: ScannerMode, label: string, icon: ReactNode) => (
    <button
      type="button"
      role="tab"
      aria-selected={mode === m}
      onClick={() => setMode(m)}
      className={cn(
        'inline-flex flex-1 items-center justify-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium [&_svg]:size-4',
        mode === m ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
      )}
    >
      {icon}
      {label}
    </button>
  );

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Barcode Scanner"
      description="Scan a sample barcode with a hand scanner or the camera, or type it."
      size="md"
    >
      <div role="tablist" aria-label="Scanner mode" className="mb-4 flex gap-1 rounded-lg bg-slate-100 p-1">
        {tab('manual', 'Manual', <Keyboard />)}
        {tab('camera', 'Camera', <Camera />)}
      </div>
      {mode === 'manual' ? (
        <BarcodeEntry
          lookup={lookup}
          pending={pending}
          autoFocus
          placeholder="Scan or type the barcode"
          hint="e.g. BCBL12345678901 — a hand scanner types it and presses Enter"
        />
      ) : (
        <CameraScanner
          onDetected={(value) => {
            if (!lookup(value)) setMode('manual');
          }}
          onUnavailable={() => setMode('manual')}
        />
      )}
    </Dialog>
  );
}
