import type { User } from '@shared/schemas/users';
import { Badge, Button, DateText, Dialog, ErrorPanel, LoadingState } from '@/components';
import { fullName } from '@/lib/session';
import { useResetTwoFactorMutation, useUserTwoFactor } from '../api';

/**
 * A user's two-factor sign-in, and the administrator's reset for a lost phone (POST
 * /api/users/:id/two-factor/reset): it is switched off and the user's sessions end.
 */
export function TwoFactorDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const status = useUserTwoFactor(user);
  const reset = useResetTwoFactorMutation();
  const enabled = status.data?.enabled === true;
  return (
    <Dialog
      open={user !== null}
      onOpenChange={(o) => !o && !reset.isPending && onClose()}
      size="sm"
      title="Two-factor sign-in"
      description={user ? `${fullName(user)} (${user.email})` : undefined}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={reset.isPending}>
            Close
          </Button>
          {enabled && (
            <Button
              variant="destructive"
              loading={reset.isPending}
              loadingText="Resetting..."
              onClick={() => user && reset.mutate(user)}
            >
              Reset two-factor
            </Button>
          )}
        </>
      }
    >
      {status.isPending ? (
        <LoadingState />
      ) : status.isError ? (
        <ErrorPanel title="Cannot load two-factor sign-in" query={status} />
      ) : enabled ? (
        <div className="grid gap-3 text-sm text-slate-700">
          <p className="flex flex-wrap items-center gap-2">
            <Badge tone="green">On</Badge>
            since <DateText value={status.data.enabled_at} withTime />, {status.data.recovery_codes_left} recovery codes
            left.
          </p>
          <p>
            Lost phone and no recovery code? Resetting turns two-factor sign-in off for this user and signs them out
            everywhere.{' '}
            {status.data.required
              ? 'Your lab requires it, so they set up a new authenticator at their next sign-in.'
              : 'They then sign in with their password until they set it up again.'}
          </p>
        </div>
      ) : (
        <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
          <Badge tone="grey">Off</Badge>
          {status.data.required
            ? 'Not set up yet: the lab requires it, so they set it up at their next sign-in.'
            : 'This user has not set up two-factor sign-in.'}
        </p>
      )}
    </Dialog>
  );
}
