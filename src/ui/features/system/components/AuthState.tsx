import type { ReactNode } from 'react';
import { RefreshCw, ShieldCheck, ShieldOff } from 'lucide-react';
import { Badge, Button, Card, CardBody, CardHeader, ErrorPanel, LoadingState } from '@/components';
import { fullName, useSession } from '@/lib/session';
import { roleLabel } from '@/lib/roles';
import { SESSION_COOKIE_NAME, storedTokenKeys } from './browserStorage';

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[9.5rem_1fr] gap-2 border-b border-slate-100 py-1.5 last:border-0">
      <dt className="text-slate-600">{label}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * What the server says about this browser's session (GET /api/auth/me) and what the page itself
 * can see of it: the session cookie is httpOnly, so scripts (and this page) cannot read it.
 */
export function AuthState({ showRaw = false }: { showRaw?: boolean }) {
  const session = useSession();
  const cookieVisible = document.cookie.split(';').some((c) => c.trim().startsWith(`${SESSION_COOKIE_NAME}=`));
  const tokens = storedTokenKeys();
  const user = session.data;
  return (
    <Card>
      <CardHeader
        title="Authentication State"
        description="As reported by GET /api/auth/me for this browser."
        icon={user ? <ShieldCheck /> : <ShieldOff />}
        actions={
          <Button
            variant="ghost"
            size="sm"
            onClick={() => void session.refetch()}
            loading={session.isFetching && !session.isPending}
            loadingText="Checking..."
          >
            <RefreshCw />
            Re-check
          </Button>
        }
      />
      <CardBody>
        {session.isPending ? (
          <LoadingState text="Checking the session..." />
        ) : session.isError ? (
          <ErrorPanel title="Cannot Reach the Server" query={session} />
        ) : (
          <dl className="text-[13px]">
            <Item label="Status">
              {user ? <Badge status="active">Signed in</Badge> : <Badge status="inactive">Not signed in</Badge>}
            </Item>
            <Item label="Name">{user ? fullName(user) : '—'}</Item>
            <Item label="Email">{user?.email ?? '—'}</Item>
            <Item label="Role">{user ? roleLabel(user.role) : '—'}</Item>
            <Item label="Permissions">
              {user ? (
                <span className="flex flex-wrap gap-1">
                  {user.permissions.map((p) => (
                    <code key={p} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-800">
                      {p}
                    </code>
                  ))}
                </span>
              ) : (
                '—'
              )}
            </Item>
            <Item label="Session">
              An httpOnly cookie ({SESSION_COOKIE_NAME}) set by the server.{' '}
              {cookieVisible ? (
                <strong className="text-red-700">Warning: this page can read it.</strong>
              ) : (
                'Scripts on this page cannot read it (checked just now).'
              )}
            </Item>
            <Item label="Stored access token">
              {tokens.length === 0
                ? 'None: lims keeps no token or user data in browser storage.'
                : `Unexpected keys in browser storage: ${tokens.join(', ')}`}
            </Item>
          </dl>
        )}
        {showRaw && session.isSuccess && (
          <details className="mt-4">
            <summary className="cursor-pointer text-[13px] font-medium text-primary-700">
              Raw answer of GET /api/auth/me
            </summary>
            <pre className="mt-2 max-h-96 overflow-auto rounded-md bg-slate-900 p-3 text-xs leading-relaxed text-slate-100">
              {user ? JSON.stringify({ user }, null, 2) : '401: not signed in'}
            </pre>
          </details>
        )}
      </CardBody>
    </Card>
  );
}
