import { useState, type FormEvent } from 'react';
import { totpCodeSchema, type TwoFactorConfirm } from '@shared/schemas/two-factor';
import { Button, Dialog, FormField, Input, OneTimeCodeInput } from '@/components';
import { ApiError, fieldErrorMessage } from '@/lib/api';

export interface ProofDialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  description: string;
  confirmLabel: string;
  busyLabel: string;
  destructive?: boolean;
  busy: boolean;
  /** Called with the proof; rejects with the server's error, shown under the field. */
  onConfirm: (proof: TwoFactorConfirm) => Promise<unknown>;
}

/** Asks for a current code from the app, or the password, before a change to one's two-factor. */
export function ProofDialog({
  open,
  onClose,
  title,
  description,
  confirmLabel,
  busyLabel,
  destructive = false,
  busy,
  onConfirm,
}: ProofDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && !busy && onClose()}
      size="sm"
      title={title}
      description={description}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button
            type="submit"
            form="two-factor-proof"
            variant={destructive ? 'destructive' : 'primary'}
            loading={busy}
            loadingText={busyLabel}
          >
            {confirmLabel}
          </Button>
        </>
      }
    >
      <ProofForm onConfirm={onConfirm} />
    </Dialog>
  );
}

/** The field and its switch; mounted while the dialog is open, so each opening starts empty. */
function ProofForm({ onConfirm }: Pick<ProofDialogProps, 'onConfirm'>) {
  const [withPassword, setWithPassword] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    let proof: TwoFactorConfirm;
    if (withPassword) {
      if (!value) return setError('Password is required');
      proof = { password: value };
    } else {
      const parsed = totpCodeSchema.safeParse(value);
      if (!parsed.success) return setError(parsed.error.issues[0]?.message);
      proof = { code: parsed.data };
    }
    setError(undefined);
    onConfirm(proof).catch((err: unknown) => {
      setValue('');
      setError(err instanceof ApiError ? fieldErrorMessage(err) : String(err));
    });
  };

  return (
    <form id="two-factor-proof" noValidate onSubmit={submit} className="grid gap-3">
      <FormField label={withPassword ? 'Your password' : 'Code from your authenticator app'} error={error} required>
        {withPassword ? (
          <Input
            type="password"
            autoComplete="current-password"
            autoFocus
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        ) : (
          <OneTimeCodeInput autoFocus value={value} onChange={(e) => setValue(e.target.value)} />
        )}
      </FormField>
      <Button
        variant="link"
        className="justify-self-start"
        onClick={() => {
          setWithPassword((w) => !w);
          setValue('');
          setError(undefined);
        }}
      >
        {withPassword ? 'Use a code from the app instead' : 'Use your password instead'}
      </Button>
    </form>
  );
}
