import { useEffect, useRef, useState } from 'react';
import { Camera } from 'lucide-react';
import type { Sample } from '@shared/schemas/samples';
import { isValidBarcode } from '@shared/samples';
import { Button, Card, CardBody, CardHeader, FormField, Input, Select } from '@/components';
import { normaliseBarcode, useBarcodeLookup } from '../useBarcodeLookup';
import { useKeystrokeTimer, useWedgeScanner } from '../useWedgeScanner';
import { BarcodeEntry } from './BarcodeEntry';
import { CameraScanner } from './CameraScanner';

export type ScannerType = 'manual' | 'camera' | 'handheld';
const SCANNER_TYPES: { value: ScannerType; label: string }[] = [
  { value: 'manual', label: 'Manual entry' },
  { value: 'handheld', label: 'Handheld scanner' },
  { value: 'camera', label: 'Camera' },
];
/** The scanner type is a property of the desk's hardware, so this browser remembers it. */
const STORAGE_KEY = 'lims:scanner-type';

function savedType(): ScannerType {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    // The camera needs a click to start (and permission), so it is never resumed on its own.
    return v === 'handheld' ? v : 'manual';
  } catch {
    return 'manual';
  }
}

/** A scanner that sends no Enter: look the burst up once it has been quiet this long. */
const SETTLE_MS = 120;

/**
 * Barcode lookup (Barcode System): manual entry (type + Enter or Lookup), a handheld scanner (a
 * field that stays focused and takes a keyboard-wedge burst, plus the same burst anywhere on the
 * page), or the camera (BarcodeDetector; falls back to manual with the spec's Camera Error).
 */
export function LookupPanel({ onFound }: { onFound: (sample: Sample) => void }) {
  const [type, setTypeState] = useState<ScannerType>(savedType);
  const [code, setCode] = useState('');
  const [lastScan, setLastScan] = useState<string | null>(null);
  const [cameraDone, setCameraDone] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const timer = useKeystrokeTimer();
  const settle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const { lookup, pending } = useBarcodeLookup(onFound);

  const setType = (t: ScannerType) => {
    setTypeState(t);
    setCode('');
    setCameraDone(false);
    try {
      localStorage.setItem(STORAGE_KEY, t);
    } catch {
      // Private windows may refuse storage; the choice then lasts for this page only.
    }
  };

  const scan = (raw: string) => {
    clearTimeout(settle.current);
    timer.reset();
    setCode('');
    setLastScan(normaliseBarcode(raw));
    lookup(raw);
    field.current?.focus();
  };

  // Handheld: a burst typed anywhere on the page (focus not in a field) is a scan too.
  useWedgeScanner(type === 'handheld', scan);
  useEffect(() => () => clearTimeout(settle.current), []);

  return (
    <Card className="mb-5">
      <CardHeader title="Barcode Lookup" description="Find a sample by scanning or typing its barcode" />
      <CardBody className="grid gap-4 md:grid-cols-[13rem_minmax(0,1fr)]">
        <FormField label="Scanner Type">
          <Select value={type} onChange={(e) => setType(e.target.value as ScannerType)} options={SCANNER_TYPES} />
        </FormField>

        {type === 'manual' && (
          <BarcodeEntry lookup={lookup} pending={pending} placeholder="e.g. BCBL12345678901" inline clearOnLookup />
        )}

        {type === 'handheld' && (
          <FormField
            label="Hand Scanner"
            hint={
              lastScan
                ? `Last scan: ${lastScan}. Ready for the next label.`
                : 'Ready: scan a tube label. The code is looked up as soon as the scanner finishes.'
            }
          >
            <Input
              ref={field}
              autoFocus
              value={code}
              autoComplete="off"
              spellCheck={false}
              placeholder="Waiting for a scan..."
              className="font-mono tracking-wide"
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === 'Tab') {
                  if (!code.trim()) return;
                  e.preventDefault();
                  scan(code);
                } else if (e.key.length === 1) timer.key();
              }}
              onChange={(e) => {
                const value = e.target.value;
                setCode(value);
                clearTimeout(settle.current);
                // Some scanners are set up without a trailing Enter: a complete code that came in as one burst is enough.
                if (isValidBarcode(normaliseBarcode(value)) && timer.isBurst()) {
                  settle.current = setTimeout(() => scan(value), SETTLE_MS);
                }
              }}
            />
          </FormField>
        )}

        {type === 'camera' && (
          <div className="grid max-w-md gap-2">
            {cameraDone ? (
              <Button variant="outline" onClick={() => setCameraDone(false)}>
                <Camera />
                Scan Another
              </Button>
            ) : (
              <CameraScanner
                onDetected={(v) => {
                  // The camera stops after a read, so the same label is not looked up again and again.
                  setCameraDone(true);
                  scan(v);
                }}
                onUnavailable={() => setType('manual')}
              />
            )}
          </div>
        )}
      </CardBody>
    </Card>
  );
}
