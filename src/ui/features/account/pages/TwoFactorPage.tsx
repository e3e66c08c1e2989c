import { useState, type FormEvent } from 'react';
import { KeyRound, ShieldCheck, ShieldOff } from 'lucide-react';
import { totpCodeSchema, type TwoFactorSetup, type TwoFactorStatus } from '@shared/schemas/two-factor';
import {
  AuthenticatorSetup,
  Badge,
  Button,
  Card,
  CardBody,
  CardHeader,
  DateText,
  ErrorPanel,
  FormField,
  LoadingState,
  OneTimeCodeInput,
  RecoveryCodes,
  ScreenHeader,
} from '@/components';
import { fieldErrorMessage } from '@/lib/api';
import { notify } from '@/lib/notify';
import { useCurrentUser } from '@/lib/session';
import { useLab } from '@/lib/lab';
import {
  useDisableMutation,
  useEnableMutation,
  useNewRecoveryCodesMutation,
  useStartSetupMutation,
  useTwoFactorStatus,
} from '../api';
import { ProofDialog } from '../components/ProofDialog';

/** Two-factor sign-in for one's own account: set up, recovery codes, turn off. */
export default function TwoFactorPage() {
  const status = useTwoFactorStatus();
  return (
    <div className="max-w-3xl">
      <ScreenHeader />
      {status.isPending ? (
        <LoadingState text="Loading two-factor sign-in..." />
      ) : status.isError ? (
        <ErrorPanel title="Cannot load two-factor sign-in" query={status} />
      ) : (
        <TwoFactorCard status={status.data} />
      )}
    </div>
  );
}

function TwoFactorCard({ status }: { status: TwoFactorStatus }) {
  const user = useCurrentUser();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  /** Recovery codes just issued: shown once, until the user says they are saved. */
  const [codes, setCodes] = useState<string[] | null>(null);
  const [dialog, setDialog] = useState<'off' | 'codes' | null>(null);
  const start = useStartSetupMutation();
  const disable = useDisableMutation();
  const renew = useNewRecoveryCodesMutation();
  const issuer = useLab().data?.name ?? 'lims';

  return (
    <Card>
      <CardHeader
        icon={<ShieldCheck />}
        title="Authenticator app"
        description="After your password, sign-in asks for the 6-digit code the app shows. Someone who learns your password still cannot sign in. Turning it on or off, or making new recovery codes, signs you out of every other browser."
        actions={status.enabled ? <Badge tone="green">On</Badge> : <Badge tone="grey">Off</Badge>}
      />
      <CardBody className="grid gap-4">
        {status.required && !status.enabled && (
          <p
            role="note"
            className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-[13px] text-amber-950"
          >
            Your lab requires two-factor sign-in. If you do not set it up here, you will be asked to at your next
            sign-in.
          </p>
        )}

        {codes ? (
          <>
            <RecoveryCodes codes={codes} account={user.email} issuer={issuer} />
            <Button className="justify-self-start" onClick={() => setCodes(null)}>
              I have saved them
            </Button>
          </>
        ) : setup ? (
          <EnableForm
            setup={setup}
            onCancel={() => setSetup(null)}
            onEnabled={(issued) => {
              setSetup(null);
              setCodes(issued);
              notify.success('Two-factor sign-in is on', 'Save your recovery codes now.');
            }}
          />
        ) : status.enabled ? (
          <>
            <dl className="grid grid-cols-[10rem_1fr] gap-x-3 gap-y-2 text-sm">
              <dt className="text-slate-600">On since</dt>
              <dd className="text-slate-900">
                <DateText value={status.enabled_at} withTime />
              </dd>
              <dt className="text-slate-600">Recovery codes left</dt>
              <dd className={status.recovery_codes_left <= 2 ? 'font-medium text-red-700' : 'text-slate-900'}>
                {status.recovery_codes_left} of 10
                {status.recovery_codes_left <= 2 && ' — make new ones'}
              </dd>
            </dl>
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" onClick={() => setDialog('codes')}>
                <KeyRound />
                New recovery codes
              </Button>
              <Button variant="outline" className="text-red-700" onClick={() => setDialog('off')}>
                <ShieldOff />
                Turn off
              </Button>
            </div>
            <p className="text-[13px] text-slate-600">
              New phone? Turn two-factor sign-in off, then set it up again on the new phone. Lost your phone and your
              recovery codes? An administrator can reset it on User Management.
            </p>
          </>
        ) : (
          <div>
            <Button
              loading={start.isPending}
              loadingText="Preparing..."
              onClick={() =>
                start.mutate(undefined, {
                  onSuccess: setSetup,
                  onError: (err) => notify.error('Cannot start the set-up', err),
                })
              }
            >
              <ShieldCheck />
              Set up two-factor sign-in
            </Button>
          </div>
        )}
      </CardBody>

      <ProofDialog
        open={dialog === 'off'}
        onClose={() => setDialog(null)}
        title="Turn off two-factor sign-in"
        description={
          status.required
            ? 'Your lab requires two-factor sign-in: you will set it up again at your next sign-in. Confirm with a code from the app or your password.'
            : 'Sign-in will ask for your password only. Confirm with a code from the app or your password.'
        }
        confirmLabel="Turn off"
        busyLabel="Turning off..."
        destructive
        busy={disable.isPending}
        onConfirm={(proof) =>
          disable.mutateAsync(proof).then(() => {
            setDialog(null);
            notify.success('Two-factor sign-in is off');
          })
        }
      />
      <ProofDialog
        open={dialog === 'codes'}
        onClose={() => setDialog(null)}
        title="New recovery codes"
        description="Ten new codes replace the ones you have; the old ones stop working. Confirm with a code from the app or your password."
        confirmLabel="Make new codes"
        busyLabel="Making codes..."
        busy={renew.isPending}
        onConfirm={(proof) =>
          renew.mutateAsync(proof).then((r) => {
            setDialog(null);
            setCodes(r.recovery_codes);
          })
        }
      />
    </Card>
  );
}

function EnableForm({
  setup,
  onCancel,
  onEnabled,
}: {
  setup: TwoFactorSetup;
  onCancel: () => void;
  onEnabled: (codes: string[]) => void;
}) {
  const enable = useEnableMutation();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = totpCodeSchema.safeParse(value);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    enable.mutate(parsed.data, {
      onSuccess: (r) => onEnabled(r.recovery_codes),
      onError: (err) => {
        setValue('');
        setError(fieldErrorMessage(err));
      },
    });
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Confirm the authenticator app">
      <AuthenticatorSetup setup={setup} />
      <FormField label="Code from the app" error={error} required>
        <OneTimeCodeInput value={value} onChange={(e) => setValue(e.target.value)} />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={enable.isPending} loadingText="Checking...">
          Turn on
        </Button>
        <Button variant="outline" onClick={onCancel} disabled={enable.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
