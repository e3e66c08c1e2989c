import { Mail } from 'lucide-react';
import { FormField, Input, Select } from '@/components';
import { SMTP_SECURITY, SMTP_SECURITY_LABELS } from '@shared/schemas/messaging';
import { messagingKeys, saveEmailSettings, sendTestEmail, useEmailSettings, type SmtpSettings } from '../messaging';
import { SaveRow, SecretField, SendTest, SettingsCard, useSettingsEditor } from './MessagingParts';

/**
 * Email (SMTP) on /settings: the lab's mail server, Save and Send Test. The password is
 * write-only: the page shows whether one is saved, never the value.
 */

export function EmailSection() {
  return (
    <SettingsCard
      icon={<Mail />}
      title="Email (SMTP)"
      description="The mail server lims sends notification and report emails through."
      query={useEmailSettings()}
      what="mail server settings"
    >
      {(saved) => <EmailEditor saved={saved} />}
    </SettingsCard>
  );
}

function EmailEditor({ saved }: { saved: SmtpSettings }) {
  const editor = useSettingsEditor({
    initial: {
      host: saved.host ?? '',
      port: String(saved.port),
      security: saved.security as string,
      user: saved.user ?? '',
      fromAddress: saved.fromAddress ?? '',
      fromName: saved.fromName ?? '',
    },
    secretKey: 'password',
    save: (draft, password) =>
      saveEmailSettings({ ...draft, security: draft.security as SmtpSettings['security'], ...password }),
    queryKey: messagingKeys.email,
    savedTitle: 'Email settings saved',
    failTitle: 'Email settings not saved',
  });
  const { errors, text } = editor;

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
            {...text('security')}
            options={SMTP_SECURITY.map((s) => ({ value: s, label: SMTP_SECURITY_LABELS[s] }))}
          />
        </FormField>
      </div>
      <FormField label="User" error={errors.user} hint="Leave empty for a server that needs no sign-in.">
        <Input {...text('user')} autoComplete="off" />
      </FormField>
      <SecretField label="Password" saved={saved.passwordSet} {...editor.secretField} />
      <FormField label="From Address" required error={errors.fromAddress}>
        <Input {...text('fromAddress')} type="email" placeholder="reports@yourlab.in" />
      </FormField>
      <FormField label="From Name" error={errors.fromName}>
        <Input {...text('fromName')} placeholder="The lab’s name" />
      </FormField>
      <SaveRow label="Save Email Settings" dirty={editor.dirty} saving={editor.saving} saved={saved} />
      <SendTest
        send={sendTestEmail}
        failTitle="Test email not sent"
        what="settings"
        saved={saved}
        dirty={editor.dirty}
        label="Send a test email to"
        placeholder="you@example.com"
        inputMode="email"
        button="Send Test Email"
      />
    </>
  );
}
