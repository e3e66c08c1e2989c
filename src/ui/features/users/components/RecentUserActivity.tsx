import { Link } from 'react-router';
import { Activity } from 'lucide-react';
import type { AuditLog } from '@shared/schemas/audit';
import { Badge, Card, CardHeader, DateText, EmptyState, ErrorPanel, LoadingState } from '@/components';
import { humanize } from '@/lib/format';
import { actionTone, actionVerb } from '@/features/audit/format';
import { actorName } from '@/features/audit/components/actor';
import { useUserActivity } from '../api';

function changedFields(log: AuditLog): string {
  const keys = Object.keys(log.new_values ?? log.old_values ?? {}).filter((k) => k !== 'updated_at');
  if (keys.length === 0) return '';
  return keys.includes('password_changed') ? 'password reset' : keys.map(humanize).join(', ');
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
        <ErrorPanel
          title="Could not load activity"
          error={activity.error}
          onRetry={() => void activity.refetch()}
          className="m-4"
        />
      ) : activity.data.length === 0 ? (
        <EmptyState title="No user activity yet" hint="Creating, editing and deactivating accounts shows up here." />
      ) : (
        <ul className="divide-y divide-slate-100">
          {activity.data.map((log) => {
            const fields = changedFields(log);
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
                  {fields && <p className="truncate text-slate-600">{fields}</p>}
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
