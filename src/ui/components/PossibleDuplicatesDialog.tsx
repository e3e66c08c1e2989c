import { useState, type ReactNode } from 'react';
import { UserCheck, UserPlus } from 'lucide-react';
import type { PatientCandidate } from '@shared/schemas/patients';
import { possibleDuplicates } from '@/lib/patients/duplicates';
import { Badge } from './Badge';
import { Button } from './Button';
import { Dialog } from './Dialog';
import { DateText } from './Money';

const MATCHED: Record<PatientCandidate['matched_on'][number], string> = {
  mobile: 'Same mobile',
  date_of_birth: 'Same date of birth',
};

export interface PossibleDuplicatesDialogProps {
  candidates: PatientCandidate[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The desk picked a patient already registered. */
  onUse: (c: PatientCandidate) => void;
  /** The desk looked: this is someone else; register anyway. */
  onConfirmNew: () => void;
  /** What "use" does here, e.g. "Use this patient" or "Bill this patient". */
  useLabel?: string;
  busy?: boolean;
}

function facts(c: PatientCandidate): string {
  return [c.age === null ? null : `${c.age} yrs`, c.gender, c.phone].filter(Boolean).join(' · ');
}

/**
 * A registration refused as a likely duplicate: the patients already registered who may be this
 * one, each with its code, age, sex, mobile and last visit, to pick one instead, or to confirm the
 * person at the desk is someone new.
 */
export function PossibleDuplicatesDialog({
  candidates,
  open,
  onOpenChange,
  onUse,
  onConfirmNew,
  useLabel = 'Use this patient',
  busy = false,
}: PossibleDuplicatesDialogProps) {
  const one = candidates.length === 1;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title="This patient may already be registered"
      description={`${one ? 'A patient' : `${candidates.length} patients`} with a similar name and the same mobile or date of birth ${one ? 'is' : 'are'} already registered. Use the existing record so the patient's history stays in one place, or register a new patient if this is someone else.`}
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
            Cancel
          </Button>
          <Button variant="outline" onClick={onConfirmNew} loading={busy} loadingText="Registering...">
            <UserPlus aria-hidden="true" />
            Register as New Patient
          </Button>
        </>
      }
    >
      <ul className="grid gap-2" aria-label="Patients already registered">
        {candidates.map((c) => (
          <li key={c.id} className="flex flex-wrap items-center gap-3 rounded-md border border-slate-200 px-3 py-2.5">
            <div className="min-w-0 flex-1">
              <p className="font-medium text-slate-900">
                {[c.title, c.first_name, c.last_name].filter(Boolean).join(' ')}{' '}
                <span className="font-mono text-[13px] text-slate-600">{c.patient_id}</span>
              </p>
              <p className="text-[13px] text-slate-700">{facts(c)}</p>
              <p className="text-[13px] text-slate-600">
                {c.last_visit ? (
                  <>
                    Last visit <DateText value={c.last_visit} />
                  </>
                ) : (
                  'No visits yet'
                )}
                {c.matched_on.map((m) => (
                  <Badge key={m} tone="blue" className="ml-2">
                    {MATCHED[m]}
                  </Badge>
                ))}
              </p>
            </div>
            <Button size="sm" onClick={() => onUse(c)} disabled={busy}>
              <UserCheck aria-hidden="true" />
              {useLabel}
            </Button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}

/**
 * The duplicate prompt of a registration form: `intercept(err, actions)` opens the dialog when the
 * error is a POSSIBLE_DUPLICATE refusal (answering true), and `dialog` is the element to render.
 */
export function useDuplicatePrompt(opts: { useLabel?: string; busy?: boolean } = {}): {
  intercept: (err: unknown, actions: { onUse: (c: PatientCandidate) => void; onConfirmNew: () => void }) => boolean;
  dialog: ReactNode;
} {
  const [state, setState] = useState<{
    candidates: PatientCandidate[];
    onUse: (c: PatientCandidate) => void;
    onConfirmNew: () => void;
  } | null>(null);
  const close = () => setState(null);
  return {
    intercept: (err, actions) => {
      const candidates = possibleDuplicates(err);
      if (!candidates) return false;
      setState({ candidates, ...actions });
      return true;
    },
    dialog: state && (
      <PossibleDuplicatesDialog
        open
        onOpenChange={(o) => !o && close()}
        candidates={state.candidates}
        useLabel={opts.useLabel}
        busy={opts.busy}
        onUse={(c) => {
          close();
          state.onUse(c);
        }}
        onConfirmNew={() => {
          close();
          state.onConfirmNew();
        }}
      />
    ),
  };
}
