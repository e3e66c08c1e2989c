import { Printer, Save, type LucideIcon } from 'lucide-react';
import { Button, type ButtonVariant } from '@/components';

export type SaveMode = 'save' | 'print';

const BUTTONS: { mode: SaveMode; label: string; icon: LucideIcon; variant?: ButtonVariant }[] = [
  { mode: 'print', label: 'Print', icon: Printer, variant: 'outline' },
  { mode: 'save', label: 'Save', icon: Save },
];

const HINT_ID = 'op-bill-ready-hint';

export interface SaveActionsProps {
  /** Patient and doctor chosen: Save and Print are disabled until then (spec 2.8). */
  ready: boolean;
  busy: SaveMode | null;
  onSubmit: (mode: SaveMode) => void;
}

/** OP Bill's Print and Save, under the bill figures, with the reason while they are disabled. */
export function SaveActions({ ready, busy, onSubmit }: SaveActionsProps) {
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap justify-end gap-2">
        {BUTTONS.map(({ mode, label, icon: Icon, variant }) => (
          <Button
            key={mode}
            variant={variant}
            onClick={() => onSubmit(mode)}
            disabled={!ready || busy !== null}
            loading={busy === mode}
            loadingText="Saving..."
            aria-describedby={ready ? undefined : HINT_ID}
          >
            <Icon aria-hidden="true" />
            {label}
          </Button>
        ))}
      </div>
      {!ready && (
        <p id={HINT_ID} className="text-right text-[13px] text-slate-600">
          Select a patient and a doctor to save or print the bill.
        </p>
      )}
    </div>
  );
}
