import { useState } from 'react';
import { Ban, Copy, Send } from 'lucide-react';
import {
  Badge,
  Card,
  ConfirmDialog,
  DataTable,
  DateText,
  FormField,
  ScreenHeader,
  Select,
  queryState,
  type BadgeTone,
  type Column,
  type RowAction,
} from '@/components';
import { LabDateInput } from '@/components/LabDateInput';
import { notify } from '@/lib/notify';
import type { DeskReport } from '@shared/schemas/report-delivery';
import { useCopyLinkMutation, useDesk, useResendMutation, useRevokeLinkMutation } from '../api';

const STATE: Record<DeskReport['state'], { label: string; tone: BadgeTone }> = {
  received: { label: 'Received', tone: 'green' },
  sent: { label: 'Sent', tone: 'blue' },
  waiting: { label: 'Sending', tone: 'amber' },
  held: { label: 'Held (bill due)', tone: 'amber' },
  failed: { label: 'Failed', tone: 'red' },
  none: { label: 'Not sent', tone: 'grey' },
};

const CHANNEL: Record<string, string> = { whatsapp: 'WhatsApp', sms: 'SMS', email: 'Email', none: 'None' };

/** The latest message to the patient, in words: "WhatsApp ******1234: read". */
function lastMessage(r: DeskReport): string {
  const mine = r.deliveries.filter((d) => d.recipient_kind === 'patient');
  const last = mine[mine.length - 1];
  if (!last) return r.consent ? '—' : 'No consent';
  return `${CHANNEL[last.channel]} ${last.recipient}: ${last.status}${last.last_error ? ` (${last.last_error})` : ''}`;
}

const columns: Column<DeskReport>[] = [
  {
    key: 'patient',
    header: 'Patient',
    cell: (r) => (
      <>
        <span className="block font-medium text-slate-900">{r.patient_name}</span>
        <span className="text-[12px] text-slate-500">{r.patient_code}</span>
      </>
    ),
  },
  {
    key: 'sample',
    header: 'Sample',
    cell: (r) => (
      <>
        {r.sample_code} {r.version !== null && r.version > 1 && <Badge tone="amber">Amended</Badge>}
      </>
    ),
  },
  { key: 'reported', header: 'Reported', cell: (r) => <DateText value={r.reported_at} withTime />, hideOnMobile: true },
  {
    key: 'channel',
    header: 'Channel',
    cell: (r) => (r.consent && r.channel ? CHANNEL[r.channel] : 'No consent'),
    hideOnMobile: true,
  },
  {
    key: 'state',
    header: 'Status',
    cell: (r) => <Badge tone={STATE[r.state].tone}>{STATE[r.state].label}</Badge>,
  },
  { key: 'message', header: 'Last message', cell: lastMessage, hideOnMobile: true },
  {
    key: 'opened',
    header: 'Opened',
    cell: (r) => (r.opened_at ? <DateText value={r.opened_at} withTime /> : '—'),
    hideOnMobile: true,
  },
];

/**
 * The front desk's view of report delivery: the day's released reports, who has not received
 * theirs, and for each: send again, copy a link to hand over (read out, or paste in a chat), revoke.
 */
export default function FrontDeskPage() {
  const [day, setDay] = useState('');
  const [only, setOnly] = useState<'all' | 'not_received'>('not_received');
  const desk = useDesk(day, only);
  const resend = useResendMutation();
  const copy = useCopyLinkMutation();
  const revoke = useRevokeLinkMutation();
  const [revoking, setRevoking] = useState<DeskReport | null>(null);
  const actions: RowAction<DeskReport>[] = [
    {
      label: (r) => `Send the report of ${r.sample_code} again`,
      icon: <Send />,
      onClick: (r) => resend.mutate({ sampleId: r.sample_id, code: r.sample_code }),
      disabled: (r) => !r.consent || r.version === null || resend.isPending,
    },
    {
      label: (r) => `Copy a link to the report of ${r.sample_code}`,
      icon: <Copy />,
      disabled: (r) => r.version === null,
      onClick: (r) =>
        copy.mutate(r.sample_id, {
          onSuccess: async (link) => {
            try {
              await navigator.clipboard.writeText(link.url);
              notify.success(
                'Link copied',
                `Paste it for ${r.patient_name}; it opens until ${new Date(link.expires_at).toLocaleDateString('en-IN')}.`,
              );
            } catch {
              notify.info('Link made', link.url);
            }
          },
        }),
    },
    {
      label: (r) => `Revoke the links of ${r.sample_code}`,
      icon: <Ban />,
      destructive: true,
      disabled: (r) => r.version === null,
      onClick: setRevoking,
    },
  ];
  return (
    <div>
      <ScreenHeader />
      <Card>
        <div className="flex flex-wrap items-end gap-3 border-b border-slate-100 p-4">
          <FormField label="Day" className="w-44">
            <LabDateInput value={day || desk.data?.day} onChange={setDay} />
          </FormField>
          <FormField label="Show" className="w-52">
            <Select
              value={only}
              onChange={(e) => setOnly(e.target.value as 'all' | 'not_received')}
              options={[
                { value: 'not_received', label: 'Not received yet' },
                { value: 'all', label: 'All reports' },
              ]}
            />
          </FormField>
          {desk.data && (
            <p className="pb-2 text-[14px] text-slate-600">
              {desk.data.reports.length} report{desk.data.reports.length === 1 ? '' : 's'}
            </p>
          )}
        </div>
        <DataTable
          caption="Released reports and their delivery"
          columns={columns}
          rows={desk.data?.reports}
          getRowId={(r) => r.sample_id}
          {...queryState(desk)}
          errorTitle="Could not load the reports"
          rowActions={actions}
          empty={{
            title:
              only === 'not_received'
                ? 'Every report of the day has reached its patient'
                : 'No reports released this day',
            hint: only === 'not_received' ? 'Show all reports to see them.' : 'Released reports appear here.',
          }}
        />
      </Card>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(o) => !o && setRevoking(null)}
        title="Revoke report links"
        message={
          revoking &&
          `Revoke every link to the report of ${revoking.sample_code} (${revoking.patient_name}) handed out so far? They will answer that the lab withdrew them. You can send or copy a new one later.`
        }
        confirmLabel="Revoke"
        busyLabel="Revoking..."
        destructive
        busy={revoke.isPending}
        onConfirm={() =>
          revoking &&
          revoke.mutate(
            { sampleId: revoking.sample_id, code: revoking.sample_code },
            { onSettled: () => setRevoking(null) },
          )
        }
      />
    </div>
  );
}
