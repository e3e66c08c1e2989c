import { MessageSquare } from 'lucide-react';
import { FormField, Input, Select, Textarea } from '@/components';
import { SMS_BODY_TYPES, SMS_METHODS } from '@shared/schemas/messaging';
import { messagingKeys, saveSmsSettings, sendTestSms, useSmsSettings, type SmsSettings } from '../messaging';
import { SaveRow, SecretField, SendTest, SettingsCard, useSettingsEditor } from './MessagingParts';

/**
 * SMS gateway on /settings: the provider's HTTP API as a URL (and body) template, Save and
 * Send Test. The API key is write-only.
 */

export function SmsSection() {
  return (
    <SettingsCard
      icon={<MessageSquare />}
      title="SMS gateway"
      description="Your SMS provider’s HTTP API: lims calls the URL for each SMS, with the number and the text filled in."
      query={useSmsSettings()}
      what="SMS gateway settings"
    >
      {(saved) => <SmsEditor saved={saved} />}
    </SettingsCard>
  );
}

function SmsEditor({ saved }: { saved: SmsSettings }) {
  const editor = useSettingsEditor({
    initial: {
      method: saved.method as string,
      urlTemplate: saved.urlTemplate ?? '',
      bodyTemplate: saved.bodyTemplate ?? '',
      bodyType: saved.bodyType as string,
      headerName: saved.headerName ?? '',
    },
    secretKey: 'apiKey',
    save: (draft, apiKey) =>
      saveSmsSettings({
        ...draft,
        method: draft.method as SmsSettings['method'],
        bodyTemplate: draft.method === 'POST' ? draft.bodyTemplate : null,
        bodyType: draft.bodyType as SmsSettings['bodyType'],
        ...apiKey,
      }),
    queryKey: messagingKeys.sms,
    savedTitle: 'SMS gateway saved',
    failTitle: 'SMS gateway not saved',
  });
  const { values: draft, errors, text } = editor;
  const post = draft.method === 'POST';

  return (
    <>
      <FormField label="Method" error={errors.method}>
        <Select {...text('method')} options={SMS_METHODS.map((m) => ({ value: m, label: m }))} />
      </FormField>
      <FormField label="Header Name" error={errors.headerName} hint="Optional: the header that carries the API key.">
        <Input {...text('headerName')} placeholder="Authorization or X-Api-Key" autoComplete="off" />
      </FormField>
      <FormField
        label="URL Template"
        required
        error={errors.urlTemplate}
        className="sm:col-span-2"
        hint="{to} is the number, {message} the text, {key} the API key; each is URL-encoded when filled in."
      >
        <Input
          {...text('urlTemplate')}
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
              {...text('bodyTemplate')}
              rows={3}
              placeholder={draft.bodyType === 'json' ? '{"to": "{to}", "text": "{message}"}' : 'to={to}&text={message}'}
              className="font-mono text-[13px]"
              spellCheck={false}
            />
          </FormField>
          <FormField label="Body Type" error={errors.bodyType}>
            <Select
              {...text('bodyType')}
              options={SMS_BODY_TYPES.map((t) => ({
                value: t,
                label: t === 'json' ? 'JSON (application/json)' : 'Form (x-www-form-urlencoded)',
              }))}
            />
          </FormField>
        </>
      )}
      <SecretField label="API Key" saved={saved.apiKeySet} {...editor.secretField} />
      <SaveRow label="Save SMS Gateway" dirty={editor.dirty} saving={editor.saving} saved={saved} />
      <SendTest
        send={sendTestSms}
        failTitle="Test SMS not sent"
        what="gateway"
        saved={saved}
        dirty={editor.dirty}
        label="Send a test SMS to"
        placeholder="98450 12345"
        inputMode="tel"
        button="Send Test SMS"
      />
    </>
  );
}
