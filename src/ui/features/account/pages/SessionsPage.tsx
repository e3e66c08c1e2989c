import { useState } from 'react';
import { LogOut, MonitorSmartphone } from 'lucide-react';
import type { OwnSession } from '@shared/schemas/sessions';
import {
  Badge,
  BrowserName,
  Button,
  Card,
  CardHeader,
  ConfirmDialog,
  DataTable,
  DateText,
  queryState,
  ScreenHeader,
  type Column,
  type RowAction,
} from '@/components';
import { browserOf } from '@/lib/userAgent';
import { useEndOtherSessionsMutation, useEndOwnSessionMutation, useOwnSessions } from '../api';

const columns: Column<OwnSession>[] = [
  {
    key: 'browser',
    header: 'Browser',
    cell: (s) => (
      <>
        <span className="block font-medium text-slate-900">
          <BrowserName ua={s.user_agent} />
        </span>
        {/* Phones have no room for the address and time columns. */}
        <span className="block text-[13px] text-slate-600 md:hidden">
          {s.ip_address ?? 'unknown address'}
          <br />
          signed in <DateText value={s.started_at} withTime />
          <br />
          last seen <DateText value={s.last_seen_at} withTime />
        </span>
        {s.current && <Badge tone="blue">This browser</Badge>}
      </>
    ),
  },
  { key: 'ip', header: 'IP Address', cell: (s) => s.ip_address ?? '—', hideOnMobile: true },
  {
    key: 'started',
    header: 'Signed In',
    cell: (s) => <DateText value={s.started_at} withTime />,
    hideOnMobile: true,
  },
  { key: 'seen', header: 'Last Seen', cell: (s) => <DateText value={s.last_seen_at} withTime />, hideOnMobile: true },
];

/** One's own open sessions: end one, or every one but this browser's. */
export default function SessionsPage() {
  const sessions = useOwnSessions();
  const endOne = useEndOwnSessionMutation();
  const endOthers = useEndOtherSessionsMutation();
  const [ending, setEnding] = useState<OwnSession | 'others' | null>(null);
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;
  const actions: RowAction<OwnSession>[] = [
    {
      label: (s) => `End session in ${browserOf(s.user_agent)} from ${s.ip_address ?? 'an unknown address'}`,
      icon: <LogOut />,
      destructive: true,
      onClick: setEnding,
      // This browser signs out with Log out, in the user menu.
      hidden: (s) => s.current,
    },
  ];
  const busy = endOne.isPending || endOthers.isPending;
  return (
    <div className="max-w-4xl">
      <ScreenHeader />
      <Card>
        <CardHeader
          title="Open sessions"
          icon={<MonitorSmartphone />}
          description="Every browser where you are signed in and have not logged out or been idle past the lab's session timeout. Turning two-factor sign-in on or off signs out all but this one."
        />
        <div className="flex justify-end border-b border-slate-100 px-4 pb-3">
          <Button variant="outline" disabled={others === 0} onClick={() => setEnding('others')}>
            <LogOut />
            Sign out all other sessions
          </Button>
        </div>
        <DataTable
          caption="Your open sessions"
          columns={columns}
          rows={sessions.data}
          getRowId={(s) => s.id}
          {...queryState(sessions)}
          errorTitle="Could not load your sessions"
          rowActions={actions}
          empty={{ title: 'No open sessions', hint: 'Sessions appear here when you sign in.' }}
        />
      </Card>
      <ConfirmDialog
        open={ending !== null}
        onOpenChange={(o) => !o && setEnding(null)}
        title={ending === 'others' ? 'Sign out all other sessions' : 'End session'}
        message={
          ending === 'others'
            ? `Sign out ${others === 1 ? 'the other session' : `all ${others} other sessions`}? Each of those browsers must sign in again; this one stays signed in.`
            : ending &&
              `Sign out ${browserOf(ending.user_agent)} (${ending.ip_address ?? 'unknown address'})? That browser must sign in again.`
        }
        confirmLabel={ending === 'others' ? 'Sign out others' : 'End session'}
        busyLabel="Ending..."
        destructive
        busy={busy}
        onConfirm={() => {
          if (ending === 'others') endOthers.mutate(undefined, { onSettled: () => setEnding(null) });
          else if (ending) endOne.mutate(ending, { onSettled: () => setEnding(null) });
        }}
      />
    </div>
  );
}
