import { Link } from 'react-router';
import { Activity } from 'lucide-react';
import type { AuditLog } from '@shared/schemas/audit';
import { Badge, Card, CardHeader, DateText, EmptyState, ErrorPanel, LoadingState } from '@/components';
import { humanize } from '@/lib/format';
import { actionTone, actionVerb } from '@/lib/audit';
import { actorName } from '@/lib/actor';
import { useUserActivity } from '../api';
import { roleLabel } from '@/lib/roles';

/** One line saying what changed: the new account's role, the fields an edit touched, or a password reset. */
function summary(log: AuditLog): string {
  const next = log.new_values ?? {};
  if ('password_changed' in next) return 'Password reset';
  if (log.action === 'create') {
    const role = typeof next.role === 'string' ? roleLabel(next.role) : null;
    const email = typeof next.email === 'string' ? next.email : null;
    return [email, role].filter(Boolean).join(' · ');
  }
  if ('suspended_at' in next) {
    if (!next.suspended_at) return 'Suspension lifted';
    return typeof next.suspended_reason === 'string' ? `Suspended: ${next.suspended_reason}` : 'Suspended';
  }
  if ('is_active' in next) return next.is_active ? 'Reactivated' : 'Deactivated';
  const keys = Object.keys(next).filter((k) => k !== 'updated_at');
  return keys.length ? `Changed ${keys.map((k) => humanize(k).toLowerCase()).join(', ')}` : '';
}

/** The latest writes to user accounts, from the audit trail (GET /api/audit?entity=user). */
export function RecentUserActivity({ nameOf }: { nameOf: (id: string | null) => string | null }) {
  const activity = useUserActivity(true);
  return (
    <Card>
      <CardHeader
        title="Recent User Activity"
        icon={<Activity />}
        actions={
          <Link to="/audit?entity=user" className="text-[13px] text-primary-700 hover:underline">
            View all
          </Link>
        }
      />
      {activity.isPending ? (
        <LoadingState text="Loading activity..." className="py-6" />
      ) : activity.isError ? (
        <ErrorPanel title="Could not load activity" query={activity} className="m-4" />
      ) : activity.data.length === 0 ? (
        <EmptyState title="No user activity yet" hint="Creating, editing and deactivating accounts shows up here." />
      ) : (
        <ul className="divide-y divide-slate-100">
          {activity.data.map((log) => {
            const fields = summary(log);
            return (
              <li key={log.id} className="flex items-start gap-3 px-4 py-2.5">
                <Badge tone={actionTone(log.action)} className="mt-0.5">
                  {humanize(log.action)}
                </Badge>
                <div className="min-w-0 flex-1 text-[13px]">
                  <p className="text-slate-900">
                    <span className="font-medium">{actorName(log)}</span> {actionVerb(log.action)}{' '}
                    <span className="font-medium">{nameOf(log.entity_id) ?? `user #${log.entity_id ?? '?'}`}</span>
                  </p>
                  {fields && <p className="break-words text-slate-600">{fields}</p>}
                </div>
                <DateText value={log.created_at} withTime className="text-xs text-slate-600" />
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
