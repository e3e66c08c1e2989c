import { ShieldAlert } from 'lucide-react';
import { ROLE_LABELS, ROLES, type Permission, type Role } from '@shared/roles';
import { LinkButton } from './Button';
import { useSession } from '@/lib/session';

export interface NoAccessProps {
  /** What the user tried to see, e.g. "the audit trail". */
  what: string;
  permission: Permission;
  /** The server's 403 message, when the refusal came from an API call. */
  serverMessage?: string;
}

const roleLabel = (role: string) => ((ROLES as readonly string[]).includes(role) ? ROLE_LABELS[role as Role] : role);

/** The "you may not see this" panel: names the missing permission and the user's role, never a bare 403. */
export function NoAccess({ what, permission, serverMessage }: NoAccessProps) {
  const { data: user } = useSession();
  return (
    <section
      role="alert"
      aria-labelledby="no-access-title"
      className="flex items-start gap-3 rounded-lg border border-amber-200 bg-amber-50 p-5 text-amber-950"
    >
      <ShieldAlert className="mt-0.5 size-6 shrink-0 text-amber-700" aria-hidden="true" />
      <div className="min-w-0">
        <h2 id="no-access-title" className="font-semibold">
          You do not have permission to view {what}
        </h2>
        <p className="mt-1 text-[13px]">
          {user ? `Your role (${roleLabel(user.role)}) ` : 'Your account '}does not include the{' '}
          <code className="rounded bg-amber-100 px-1">{permission}</code> permission. Ask your lab administrator if you
          need it.
        </p>
        {serverMessage && <p className="mt-1 text-[13px] text-amber-900">Server: {serverMessage}</p>}
        <LinkButton to="/home" variant="outline" size="sm" className="mt-3">
          Go to Home
        </LinkButton>
      </div>
    </section>
  );
}
