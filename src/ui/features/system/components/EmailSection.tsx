import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Mail, Save } from 'lucide-react';
import { Button, DateText, FormField, Input, Select } from '@/components';
import { ApiError } from '@/lib/api';
import { notify } from '@/lib/notify';
import { SMTP_SECURITY, SMTP_SECURITY_LABELS } from '@shared/schemas/messaging';
import {
  messagingKeys,
  saveEmailSettings,
  sendTestEmail,
  useEmailSettings,
  type SendOutcome,
  type SmtpSettings,
} from '../messaging';
import { Loaded, Outcome, SecretField, Section, TestRow, onSaveError, type Errors } from './MessagingParts';

/**
 * Email (SMTP) on /settings (issue 13): the lab's mail server, Save and Send Test. The password is
 * write-only: the page shows whether one is saved, never the value.
 */

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
