import { useState, type FormEvent } from 'react';
import { ArrowLeft, ShieldCheck } from 'lucide-react';
import type { User } from '@shared/schemas/users';
import { recoveryCodeSchema, totpCodeSchema, type TwoFactorChallenge } from '@shared/schemas/two-factor';
import {
  AuthenticatorSetup,
  Button,
  Checkbox,
  ErrorPanel,
  FormField,
  Input,
  LoadingState,
  OneTimeCodeInput,
  RecoveryCodes,
} from '@/components';
import { ApiError, fieldErrorMessage } from '@/lib/api';
import { notify } from '@/lib/notify';
import { useSignedIn, useTwoFactorLoginMutation, useTwoFactorLoginSetup } from '@/lib/auth';

/** The challenge has expired, was used, or died of wrong codes: back to email and password. */
const gone = (err: unknown) => err instanceof ApiError && err.code === 'TWO_FACTOR_EXPIRED';

export interface StepProps {
  challenge: TwoFactorChallenge;
  email: string;
  /** Back to email and password (the challenge is spent or abandoned). */
  onRestart: () => void;
}

/**
 * The code box of a step: its text and its message. A refused code empties the box and says why
 * under it; a spent challenge goes back to email and password.
 */
function useCodeEntry(onRestart: () => void) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const refused = (err: unknown) => {
    setValue('');
    if (gone(err)) {
      notify.error('Sign in again', err);
      onRestart();
    } else setError(fieldErrorMessage(err));
  };
  return { value, setValue, error, setError, refused };
}

function BackToSignIn({ onRestart }: { onRestart: () => void }) {
  return (
    <Button variant="link" onClick={onRestart} className="justify-self-start">
      <ArrowLeft aria-hidden="true" />
      Back to sign in
    </Button>
  );
}

/** After the password: the 6-digit code from the authenticator app, or a recovery code. */
export function TwoFactorCodeStep({ challenge, email, onRestart }: StepProps) {
  const verify = useTwoFactorLoginMutation();
  const [recovery, setRecovery] = useState(false);
  const { value, setValue, error, setError, refused } = useCodeEntry(onRestart);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = (recovery ? recoveryCodeSchema : totpCodeSchema).safeParse(value);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    verify.mutate(
      recovery
        ? { challenge: challenge.challenge, recovery_code: parsed.data }
        : { challenge: challenge.challenge, code: parsed.data },
      {
        onError: refused,
      },
    );
  };

  const switchMode = () => {
    setRecovery((r) => !r);
    setValue('');
    setError(undefined);
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Two-factor code">
      <p className="text-sm text-slate-700">
        {recovery
          ? `Enter one of the recovery codes you saved for ${email}. Each code works once.`
          : `Enter the 6-digit code from the authenticator app on your phone for ${email}.`}
      </p>
      <FormField label={recovery ? 'Recovery code' : 'Authentication code'} error={error} required>
        {recovery ? (
          <Input
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="abcd-efgh-jkmn-pqrs"
            className="font-mono"
            autoFocus
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        ) : (
          <OneTimeCodeInput autoFocus value={value} onChange={(e) => setValue(e.target.value)} />
        )}
      </FormField>
      <Button type="submit" size="lg" loading={verify.isPending} loadingText="Verifying..." className="w-full">
        <ShieldCheck />
        Verify
      </Button>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <BackToSignIn onRestart={onRestart} />
        <Button variant="link" onClick={switchMode}>
          {recovery ? 'Use your authenticator app' : 'Use a recovery code'}
        </Button>
      </div>
    </form>
  );
}

/**
 * The lab requires two-factor and this user has none: after the right password, the QR code and a
 * code of it switch it on; the recovery codes are shown before the user gets in.
 */
export function TwoFactorEnrolStep({ challenge, email, onRestart }: StepProps) {
  const setup = useTwoFactorLoginSetup(challenge.challenge);
  const verify = useTwoFactorLoginMutation();
  const signedIn = useSignedIn();
  const { value, setValue, error, setError, refused } = useCodeEntry(onRestart);
  const [done, setDone] = useState<{ user: User; codes: string[] } | null>(null);
  const [saved, setSaved] = useState(false);

  if (done && setup.data)
    return (
      <div className="grid gap-4">
        <p className="text-sm text-slate-700">
          Two-factor sign-in is on. From now on you sign in with your password and a code from the app.
        </p>
        <RecoveryCodes codes={done.codes} account={setup.data.account} issuer={setup.data.issuer} />
        <Checkbox label="I have saved my recovery codes" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
        <Button size="lg" className="w-full" disabled={!saved} onClick={() => void signedIn(done.user)}>
          Continue
        </Button>
      </div>
    );

  if (setup.isPending) return <LoadingState text="Preparing your QR code..." />;
  if (setup.isError)
    return (
      <div className="grid gap-3">
        <ErrorPanel
          title="Cannot start the set-up"
          error={setup.error}
          onRetry={gone(setup.error) ? undefined : () => void setup.refetch()}
        />
        <BackToSignIn onRestart={onRestart} />
      </div>
    );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = totpCodeSchema.safeParse(value);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    verify.mutate(
      { challenge: challenge.challenge, code: parsed.data },
      {
        onSuccess: ({ user, recovery_codes }) => setDone({ user, codes: recovery_codes ?? [] }),
        onError: refused,
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Set up two-factor sign-in">
      <p className="text-sm text-slate-700">
        Your lab requires two-factor sign-in. Set up an authenticator app for {email} to continue.
      </p>
      <AuthenticatorSetup setup={setup.data} />
      <FormField label="Code from the app" error={error} required>
        <OneTimeCodeInput value={value} onChange={(e) => setValue(e.target.value)} />
      </FormField>
      <Button type="submit" size="lg" loading={verify.isPending} loadingText="Checking..." className="w-full">
        <ShieldCheck />
        Turn on and sign in
      </Button>
      <BackToSignIn onRestart={onRestart} />
    </form>
  );
}
