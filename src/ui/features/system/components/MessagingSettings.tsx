import { useState, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Mail, MessageSquare, Save, Send } from 'lucide-react';
import {
  Badge,
  Button,
  Card,
  CardBody,
  CardHeader,
  DateText,
  ErrorPanel,
  FormField,
  Input,
  LoadingState,
  Select,
  Switch,
  Textarea,
} from '@/components';
import { ApiError } from '@/lib/api';
import { notify } from '@/lib/notify';
import { SMS_BODY_TYPES, SMS_METHODS, SMTP_SECURITY, SMTP_SECURITY_LABELS } from '@shared/schemas/messaging';
import {
  DELIVERY_KINDS,
  messagingKeys,
  saveEmailSettings,
  saveSmsSettings,
  sendTestEmail,
  sendTestSms,
  useDeliveries,
  useEmailSettings,
  useSmsSettings,
  type SendOutcome,
  type SmsSettings,
  type SmtpSettings,
} from '../messaging';

/**
 * Lab email and SMS on /settings (issue 13): the switches that need a channel, the outbox's
 * deliveries, and the Email (SMTP) and SMS gateway sections with Save and Send Test. The password
 * and the API key are write-only: the page shows whether one is saved, never the value.
 */

type Errors = Record<string, string | undefined>;

function Section({
  icon,
  title,
  description,
  children,
}: {
  icon: ReactNode;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader icon={icon} title={title} description={description} />
      <CardBody className="grid gap-4 sm:grid-cols-2">{children}</CardBody>
    </Card>
  );
}

/** 400 details by field, or a toast for anything else. */
function onSaveError(title: string, setErrors: (e: Errors) => void) {
  return (err: unknown) => {
    if (err instanceof ApiError && err.status === 400 && err.details.length) {
      const next: Errors = {};
      for (const d of err.details) next[d.path] ??= d.message;
      setErrors(next);
      notify.error(title, `${err.details.length} field(s) need attention`);
    } else notify.error(title, err);
  };
}

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

function Outcome({ outcome }: { outcome: SendOutcome | null }) {
  if (!outcome) return null;
  return (
    <p
      role="status"
      data-testid="test-outcome"
      className={`break-words text-sm sm:col-span-2 ${outcome.ok ? 'text-green-800' : 'text-red-700'}`}
    >
      <strong>{outcome.ok ? 'Sent' : 'Not sent'}</strong> ({(outcome.ms / 1000).toFixed(1)} s): {outcome.message}
    </p>
  );
}

/** A write-only secret: "set" or empty, a Clear action; typing replaces it. */
function SecretField({
  label,
  saved,
  value,
  clear,
  error,
  onChange,
  onClear,
}: {
  label: string;
  saved: boolean;
  value: string;
  clear: boolean;
  error?: string | undefined;
  onChange: (v: string) => void;
  onClear: (clear: boolean) => void;
}) {
  const hint = clear
    ? 'Will be removed when you save.'
    : saved
      ? 'Set. Leave empty to keep it; type a new one to replace it.'
      : 'None saved.';
  return (
    <FormField label={label} error={error} hint={hint}>
      {(control) => (
        <div className="flex gap-2">
          <Input
            {...control}
            type="password"
            autoComplete="new-password"
            value={value}
            disabled={clear}
            placeholder={saved && !clear ? '•••••••• (set)' : ''}
            onChange={(e) => onChange(e.target.value)}
          />
          {saved && (
            <Button variant="outline" onClick={() => onClear(!clear)}>
              {clear ? 'Keep' : 'Clear'}
            </Button>
          )}
        </div>
      )}
    </FormField>
  );
}

function TestRow({
  label,
  placeholder,
  inputMode,
  disabledReason,
  busy,
  onSend,
  button,
}: {
  label: string;
  placeholder: string;
  inputMode: 'email' | 'tel';
  disabledReason: string | null;
  busy: boolean;
  onSend: (to: string) => void;
  button: string;
}) {
  const [to, setTo] = useState('');
  return (
    <FormField label={label} hint={disabledReason ?? undefined} className="sm:col-span-2">
      {(control) => (
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            {...control}
            value={to}
            inputMode={inputMode}
            type={inputMode === 'email' ? 'email' : 'tel'}
            placeholder={placeholder}
            onChange={(e) => setTo(e.target.value)}
          />
          <Button variant="outline" onClick={() => onSend(to)} disabled={busy || !to.trim() || disabledReason !== null}>
            <Send aria-hidden="true" />
            {busy ? 'Sending…' : button}
          </Button>
        </div>
      )}
    </FormField>
  );
}

/** Loads one of the two settings and hands it to its editor, fresh after each save. */
function Loaded<T extends { updatedAt: string | null }>({
  query,
  what,
  children,
}: {
  query: { data?: T | undefined; isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  what: string;
  children: (saved: T) => ReactNode;
}) {
  if (query.isPending) return <LoadingState />;
  if (query.isError || !query.data)
    return <ErrorPanel title={`Cannot load the ${what}`} error={query.error} onRetry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}

export function EmailSection() {
  const q = useEmailSettings();
  return (
    <Section
      icon={<Mail />}
      title="Email (SMTP)"
      description="The mail server lims sends notification and report emails through."
    >
      <Loaded query={q} what="mail server settings">
        {(saved) => <EmailEditor key={saved.updatedAt ?? 'new'} saved={saved} />}
      </Loaded>
    </Section>
  );
}

function EmailEditor({ saved }: { saved: SmtpSettings }) {
  const qc = useQueryClient();
  const initial = {
    host: saved.host ?? '',
    port: String(saved.port),
    security: saved.security,
    user: saved.user ?? '',
    fromAddress: saved.fromAddress ?? '',
    fromName: saved.fromName ?? '',
  };
  const [draft, setDraft] = useState(initial);
  const [password, setPassword] = useState('');
  const [clear, setClear] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [outcome, setOutcome] = useState<SendOutcome | null>(null);
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial) || password !== '' || clear;

  const save = useMutation({
    mutationFn: () =>
      saveEmailSettings({
        host: draft.host,
        port: draft.port,
        security: draft.security,
        user: draft.user,
        fromAddress: draft.fromAddress,
        fromName: draft.fromName,
        ...(clear ? { password: null } : password ? { password } : {}),
      }),
    onSuccess: (s) => {
      qc.setQueryData(messagingKeys.email, s);
      notify.success('Email settings saved');
    },
    onError: onSaveError('Email settings not saved', setErrors),
  });
  const test = useMutation({
    mutationFn: sendTestEmail,
    onMutate: () => setOutcome(null),
    onSuccess: (o) => {
      setOutcome(o);
      void qc.invalidateQueries({ queryKey: messagingKeys.deliveries });
    },
    onError: (err) =>
      err instanceof ApiError && err.status === 400
        ? notify.error('Test email not sent', err.details[0]?.message ?? err)
        : notify.error('Test email not sent', err),
  });
  const set = (key: keyof typeof initial, value: string) => {
    setDraft({ ...draft, [key]: value });
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const text = (key: keyof typeof initial) => ({
    value: draft[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
  });

  return (
    <>
      <FormField label="Host" required error={errors.host}>
        <Input {...text('host')} placeholder="smtp.example.com" autoComplete="off" />
      </FormField>
      <div className="grid grid-cols-[7rem_1fr] gap-3">
        <FormField label="Port" required error={errors.port}>
          <Input {...text('port')} inputMode="numeric" />
        </FormField>
        <FormField label="Security" error={errors.security}>
          <Select
            value={draft.security}
            onChange={(e) => set('security', e.target.value)}
            options={SMTP_SECURITY.map((s) => ({ value: s, label: SMTP_SECURITY_LABELS[s] }))}
          />
        </FormField>
      </div>
      <FormField label="User" error={errors.user} hint="Leave empty for a server that needs no sign-in.">
        <Input {...text('user')} autoComplete="off" />
      </FormField>
      <SecretField
        label="Password"
        saved={saved.passwordSet}
        value={password}
        clear={clear}
        error={errors.password}
        onChange={(v) => {
          setPassword(v);
          setErrors((e) => ({ ...e, password: undefined }));
        }}
        onClear={(c) => {
          setClear(c);
          setPassword('');
        }}
      />
      <FormField label="From Address" required error={errors.fromAddress}>
        <Input {...text('fromAddress')} type="email" placeholder="reports@yourlab.in" />
      </FormField>
      <FormField label="From Name" error={errors.fromName}>
        <Input {...text('fromName')} placeholder="The lab’s name" />
      </FormField>
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <Button onClick={() => save.mutate()} disabled={!dirty || save.isPending}>
          <Save aria-hidden="true" />
          {save.isPending ? 'Saving…' : 'Save Email Settings'}
        </Button>
        {saved.configured && saved.updatedAt && (
          <span className="text-xs text-slate-600">
            Saved <DateText value={saved.updatedAt} withTime />
          </span>
        )}
      </div>
      <TestRow
        label="Send a test email to"
        placeholder="you@example.com"
        inputMode="email"
        disabledReason={
          !saved.configured
            ? 'Save the settings first.'
            : dirty
              ? 'Save your changes first: the test uses the saved settings.'
              : null
        }
        busy={test.isPending}
        onSend={(to) => test.mutate(to)}
        button="Send Test Email"
      />
      <Outcome outcome={outcome} />
    </>
  );
}

export function SmsSection() {
  const q = useSmsSettings();
  return (
    <Section
      icon={<MessageSquare />}
      title="SMS gateway"
      description="Your SMS provider’s HTTP API: lims calls the URL for each SMS, with the number and the text filled in."
    >
      <Loaded query={q} what="SMS gateway settings">
        {(saved) => <SmsEditor key={saved.updatedAt ?? 'new'} saved={saved} />}
      </Loaded>
    </Section>
  );
}

function SmsEditor({ saved }: { saved: SmsSettings }) {
  const qc = useQueryClient();
  const initial = {
    method: saved.method,
    urlTemplate: saved.urlTemplate ?? '',
    bodyTemplate: saved.bodyTemplate ?? '',
    bodyType: saved.bodyType,
    headerName: saved.headerName ?? '',
  };
  const [draft, setDraft] = useState(initial);
  const [apiKey, setApiKey] = useState('');
  const [clear, setClear] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [outcome, setOutcome] = useState<SendOutcome | null>(null);
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial) || apiKey !== '' || clear;
  const post = draft.method === 'POST';

  const save = useMutation({
    mutationFn: () =>
      saveSmsSettings({
        method: draft.method,
        urlTemplate: draft.urlTemplate,
        bodyTemplate: post ? draft.bodyTemplate : null,
        bodyType: draft.bodyType,
        headerName: draft.headerName,
        ...(clear ? { apiKey: null } : apiKey ? { apiKey } : {}),
      }),
    onSuccess: (s) => {
      qc.setQueryData(messagingKeys.sms, s);
      notify.success('SMS gateway saved');
    },
    onError: onSaveError('SMS gateway not saved', setErrors),
  });
  const test = useMutation({
    mutationFn: sendTestSms,
    onMutate: () => setOutcome(null),
    onSuccess: (o) => {
      setOutcome(o);
      void qc.invalidateQueries({ queryKey: messagingKeys.deliveries });
    },
    onError: (err) =>
      err instanceof ApiError && err.status === 400
        ? notify.error('Test SMS not sent', err.details[0]?.message ?? err)
        : notify.error('Test SMS not sent', err),
  });
  const set = (key: keyof typeof initial, value: string) => {
    setDraft({ ...draft, [key]: value });
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  return (
    <>
      <FormField label="Method" error={errors.method}>
        <Select
          value={draft.method}
          onChange={(e) => set('method', e.target.value)}
          options={SMS_METHODS.map((m) => ({ value: m, label: m }))}
        />
      </FormField>
      <FormField label="Header Name" error={errors.headerName} hint="Optional: the header that carries the API key.">
        <Input
          value={draft.headerName}
          onChange={(e) => set('headerName', e.target.value)}
          placeholder="Authorization or X-Api-Key"
          autoComplete="off"
        />
      </FormField>
      <FormField
        label="URL Template"
        required
        error={errors.urlTemplate}
        className="sm:col-span-2"
        hint="{to} is the number, {message} the text, {key} the API key; each is URL-encoded when filled in."
      >
        <Input
          value={draft.urlTemplate}
          onChange={(e) => set('urlTemplate', e.target.value)}
          placeholder="https://sms.example.com/send?to={to}&text={message}&apikey={key}"
          className="font-mono text-[13px]"
          autoComplete="off"
          spellCheck={false}
        />
      </FormField>
      {post && (
        <>
          <FormField
            label="Body Template"
            error={errors.bodyTemplate}
            className="sm:col-span-2"
            hint="Optional: the POST body, with the same placeholders."
          >
            <Textarea
              value={draft.bodyTemplate}
              onChange={(e) => set('bodyTemplate', e.target.value)}
              rows={3}
              placeholder={draft.bodyType === 'json' ? '{"to": "{to}", "text": "{message}"}' : 'to={to}&text={message}'}
              className="font-mono text-[13px]"
              spellCheck={false}
            />
          </FormField>
          <FormField label="Body Type" error={errors.bodyType}>
            <Select
              value={draft.bodyType}
              onChange={(e) => set('bodyType', e.target.value)}
              options={SMS_BODY_TYPES.map((t) => ({
                value: t,
                label: t === 'json' ? 'JSON (application/json)' : 'Form (x-www-form-urlencoded)',
              }))}
            />
          </FormField>
        </>
      )}
      <SecretField
        label="API Key"
        saved={saved.apiKeySet}
        value={apiKey}
        clear={clear}
        error={errors.apiKey}
        onChange={(v) => {
          setApiKey(v);
          setErrors((e) => ({ ...e, apiKey: undefined }));
        }}
        onClear={(c) => {
          setClear(c);
          setApiKey('');
        }}
      />
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <Button onClick={() => save.mutate()} disabled={!dirty || save.isPending}>
          <Save aria-hidden="true" />
          {save.isPending ? 'Saving…' : 'Save SMS Gateway'}
        </Button>
        {saved.configured && saved.updatedAt && (
          <span className="text-xs text-slate-600">
            Saved <DateText value={saved.updatedAt} withTime />
          </span>
        )}
      </div>
      <TestRow
        label="Send a test SMS to"
        placeholder="98450 12345"
        inputMode="tel"
        disabledReason={
          !saved.configured
            ? 'Save the gateway first.'
            : dirty
              ? 'Save your changes first: the test uses the saved gateway.'
              : null
        }
        busy={test.isPending}
        onSend={(to) => test.mutate(to)}
        button="Send Test SMS"
      />
      <Outcome outcome={outcome} />
    </>
  );
}
