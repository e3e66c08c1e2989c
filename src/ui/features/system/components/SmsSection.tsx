import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MessageSquare, Save } from 'lucide-react';
import { Button, DateText, FormField, Input, Select, Textarea } from '@/components';
import { ApiError } from '@/lib/api';
import { notify } from '@/lib/notify';
import { SMS_BODY_TYPES, SMS_METHODS } from '@shared/schemas/messaging';
import {
  messagingKeys,
  saveSmsSettings,
  sendTestSms,
  useSmsSettings,
  type SendOutcome,
  type SmsSettings,
} from '../messaging';
import { Loaded, Outcome, SecretField, Section, TestRow, onSaveError, type Errors } from './MessagingParts';

/**
 * SMS gateway on /settings (issue 13): the provider's HTTP API as a URL (and body) template, Save and
 * Send Test. The API key is write-only.
 */

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
