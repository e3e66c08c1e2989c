import { Badge, DateText, Switch } from '@/components';
import { DELIVERY_KINDS, useDeliveries, useEmailSettings, useSmsSettings } from '../messaging';

/** The Notification section's email, SMS and report switches, and the outbox's recent deliveries. */

type SwitchKey = 'emailNotifications' | 'smsNotifications' | 'reportNotifications';

/**
 * The email, SMS and report switches of the Notification section. A switch whose channel is not
 * set up cannot be turned on (the server refuses it too); one already on says nothing is sent.
 */
export function ChannelSwitches({
  values,
  onChange,
  errors,
}: {
  values: Record<SwitchKey, boolean>;
  onChange: (key: SwitchKey, value: boolean) => void;
  errors: Partial<Record<SwitchKey, string>>;
}) {
  const email = useEmailSettings().data?.configured ?? false;
  const sms = useSmsSettings().data?.configured ?? false;
  const one = (key: SwitchKey, label: string, ready: boolean, what: string, missing: string) => (
    <div className="space-y-1">
      <Switch
        checked={values[key]}
        onCheckedChange={(v) => onChange(key, v)}
        disabled={!ready && !values[key]}
        label={label}
      />
      {errors[key] ? (
        <p className="text-xs text-red-700" role="alert">
          {errors[key]}
        </p>
      ) : (
        <p className={ready || !values[key] ? 'text-xs text-slate-600' : 'text-xs text-amber-800'}>
          {ready
            ? what
            : values[key]
              ? `On, but ${missing}: nothing is sent.`
              : `${missing[0]!.toUpperCase()}${missing.slice(1)}: set it up below first.`}
        </p>
      )}
    </div>
  );
  return (
    <>
      {one(
        'emailNotifications',
        'Email notifications',
        email,
        'The same notifications by email, to staff with an email address.',
        'no mail server is set up',
      )}
      {one(
        'smsNotifications',
        'SMS notifications',
        sms,
        'High-priority notifications (critical and amended results, failed backups) by SMS, to staff with a phone.',
        'no SMS gateway is set up',
      )}
      {one(
        'reportNotifications',
        'Report notifications',
        email || sms,
        `When a report is ready, the patient and the referring doctor are told by ${email && sms ? 'email and SMS' : email ? 'email' : 'SMS'}.`,
        'neither a mail server nor an SMS gateway is set up',
      )}
      <DeliveriesPanel />
    </>
  );
}

/** The outbox: the last 7 days' figures and the latest messages (never their recipient or text). */
function DeliveriesPanel() {
  const d = useDeliveries();
  if (!d.data) return null;
  const { summary, recent } = d.data;
  return (
    <div className="space-y-2 sm:col-span-2" data-testid="deliveries">
      <p className="text-sm">
        <span className="font-medium text-slate-800">Email and SMS, last 7 days:</span> {summary.sent} sent ·{' '}
        {summary.waiting} waiting ·{' '}
        <span className={summary.failed ? 'text-red-700' : undefined}>{summary.failed} failed</span>
      </p>
      {recent.length > 0 && (
        <ul className="divide-y divide-slate-100 rounded-md border border-slate-200 text-[13px]">
          {recent.slice(0, 5).map((m) => (
            <li key={m.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2">
              <DateText value={m.sent_at ?? m.created_at} withTime className="text-slate-600" />
              <span>{m.channel === 'email' ? 'Email' : 'SMS'}</span>
              <span className="text-slate-800">{DELIVERY_KINDS[m.kind] ?? m.kind}</span>
              <Badge tone={m.status === 'sent' ? 'green' : m.status === 'failed' ? 'red' : 'amber'}>
                {m.status === 'pending' && m.attempts > 0 ? 'retrying' : m.status}
              </Badge>
              {m.attempts > 1 && <span className="text-slate-600">{m.attempts} tries</span>}
              {m.last_error && m.status !== 'sent' && (
                <span className={`w-full break-words ${m.status === 'failed' ? 'text-red-700' : 'text-amber-800'}`}>
                  {m.last_error}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
