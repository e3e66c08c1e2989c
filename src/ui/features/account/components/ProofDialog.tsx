import type { FormEvent } from 'react';
import { totpCodeSchema, type TwoFactorConfirm } from '@shared/schemas/two-factor';
import { Button, FormDialog, FormField, Input, OneTimeCodeInput } from '@/components';
import { useFieldForm } from '@/lib/forms';
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
  const {
    values: v,
    setValues,
    errors,
    setErrors,
  } = useFieldForm(() => ({ withPassword: false, value: '' }), { resetFor: open ? 'open' : null });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    let proof: TwoFactorConfirm;
    if (v.withPassword) {
      if (!v.value) return setErrors({ value: 'Password is required' });
      proof = { password: v.value };
    } else {
      const parsed = totpCodeSchema.safeParse(v.value);
      if (!parsed.success) return setErrors({ value: parsed.error.issues[0]?.message });
      proof = { code: parsed.data };
    }
    setErrors({});
    onConfirm(proof).catch((err: unknown) => {
      setValues((x) => ({ ...x, value: '' }));
      setErrors({ value: err instanceof ApiError ? fieldErrorMessage(err) : String(err) });
    });
  };
  const setValue = (value: string) => setValues((x) => ({ ...x, value }));

  return (
    <FormDialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      size="sm"
      title={title}
      description={description}
      busy={busy}
      form={{ id: 'two-factor-proof', onSubmit: submit, columns: 1 }}
      onCancel={onClose}
      submitVariant={destructive ? 'destructive' : 'primary'}
      submitLabel={confirmLabel}
      busyLabel={busyLabel}
    >
      <FormField
        label={v.withPassword ? 'Your password' : 'Code from your authenticator app'}
        error={errors.value}
        required
      >
        {v.withPassword ? (
          <Input
            type="password"
            autoComplete="current-password"
            autoFocus
            value={v.value}
            onChange={(e) => setValue(e.target.value)}
          />
        ) : (
          <OneTimeCodeInput autoFocus value={v.value} onChange={(e) => setValue(e.target.value)} />
        )}
      </FormField>
      <Button
        variant="link"
        className="justify-self-start"
        onClick={() => {
          setValues((x) => ({ withPassword: !x.withPassword, value: '' }));
          setErrors({});
        }}
      >
        {v.withPassword ? 'Use a code from the app instead' : 'Use your password instead'}
      </Button>
    </FormDialog>
  );
}
