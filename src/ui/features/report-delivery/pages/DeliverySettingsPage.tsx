import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Link2, MessageCircle, MessageSquareText, Save, Send, Wallet } from 'lucide-react';
import {
  Button,
  Card,
  CardBody,
  CardHeader,
  Checkbox,
  ErrorPanel,
  FormField,
  Input,
  LoadingState,
  ScreenHeader,
  Select,
} from '@/components';
import { applyServerErrors, fieldNamed, formError } from '@/lib/forms';
import { notify } from '@/lib/notify';
import {
  LINK_DAYS_MAX,
  deliverySettingsUpdateSchema,
  type DeliverySettings,
  type DeliverySettingsUpdate,
} from '@shared/schemas/report-delivery';
import { useDeliverySettings, useSaveDeliverySettingsMutation } from '../api';
import { SecretInput } from '../components/SecretInput';

type FormIn = z.input<typeof deliverySettingsUpdateSchema>;
type FormOut = z.output<typeof deliverySettingsUpdateSchema>;

const SECRETS = ['whatsapp_token', 'whatsapp_app_secret', 'whatsapp_verify_token', 'sms_report_key'] as const;
type Secret = (typeof SECRETS)[number];

const FIELDS = [
  'enabled',
  'whatsapp_on',
  'sms_on',
  'email_on',
  'fallback_channel',
  'send_to_doctors',
  'hold_until_paid',
  'link_days',
  'proof',
  'email_mode',
  'whatsapp_base_url',
  'whatsapp_phone_number_id',
  'whatsapp_template',
  'whatsapp_otp_template',
  'whatsapp_language',
  ...SECRETS,
  'price_whatsapp',
  'price_sms',
  'price_email',
] as const;

const PROOFS = [
  { value: 'birth_year', label: 'Year of birth' },
  { value: 'mobile_last4', label: 'Last 4 digits of the mobile' },
  { value: 'otp', label: 'A one-time code sent to the mobile' },
];

function defaults(s: DeliverySettings): FormIn {
  return {
    enabled: s.enabled,
    whatsapp_on: s.whatsapp_on,
    sms_on: s.sms_on,
    email_on: s.email_on,
    fallback_channel: s.fallback_channel,
    send_to_doctors: s.send_to_doctors,
    hold_until_paid: s.hold_until_paid,
    link_days: String(s.link_days),
    proof: s.proof,
    email_mode: s.email_mode,
    whatsapp_base_url: s.whatsapp_base_url,
    whatsapp_phone_number_id: s.whatsapp_phone_number_id ?? '',
    whatsapp_template: s.whatsapp_template ?? '',
    whatsapp_otp_template: s.whatsapp_otp_template ?? '',
    whatsapp_language: s.whatsapp_language,
    whatsapp_token: '',
    whatsapp_app_secret: '',
    whatsapp_verify_token: '',
    sms_report_key: '',
    price_whatsapp: s.price_whatsapp.toFixed(2),
    price_sms: s.price_sms.toFixed(2),
    price_email: s.price_email.toFixed(2),
  };
}

export default function DeliverySettingsPage() {
  const saved = useDeliverySettings();
  return (
    <>
      <ScreenHeader />
      {saved.isPending ? (
        <LoadingState />
      ) : saved.isError ? (
        <ErrorPanel title="Cannot load the report delivery settings" query={saved} />
      ) : (
        <SettingsForm key={JSON.stringify(saved.data)} saved={saved.data} />
      )}
    </>
  );
}

function SettingsForm({ saved }: { saved: DeliverySettings }) {
  const save = useSaveDeliverySettingsMutation();
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(deliverySettingsUpdateSchema),
    defaultValues: defaults(saved),
    mode: 'onBlur',
  });
  const [remove, setRemove] = useState<Record<Secret, boolean>>({
    whatsapp_token: false,
    whatsapp_app_secret: false,
    whatsapp_verify_token: false,
    sms_report_key: false,
  });
  const { errors } = form.formState;
  const err = (k: (typeof FIELDS)[number]) => errors[k]?.message;

  const onSubmit = form.handleSubmit(
    (v) => {
      // A secret field left empty keeps the saved one: it is left out of the body, never sent as "".
      const body: DeliverySettingsUpdate = { ...v };
      for (const k of SECRETS) {
        if (remove[k]) body[k] = null;
        else if (!form.getValues(k)) delete body[k];
      }
      save.mutate(body, {
        onError: (e) => {
          const placed = applyServerErrors(e, form.setError, fieldNamed(FIELDS));
          notify.error('Report delivery settings not saved', placed ? `${placed} field(s) need attention` : e);
        },
      });
    },
    () => notify.error('Report delivery settings not saved', 'Some fields need attention.'),
  );

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4">
      <Card>
        <CardHeader
          icon={<Send />}
          title="Sending"
          description="Reports go to patients who gave consent, on their channel, once every test is verified."
        />
        <CardBody className="grid gap-4 sm:grid-cols-2">
          <Checkbox
            label="Send reports by link"
            hint="Off: no links are made and no report messages go."
            {...form.register('enabled')}
          />
          <Checkbox
            label="Hold reports until the bill is paid"
            hint="Also holds the portal and the printed report; the payment that clears the bill sends them."
            {...form.register('hold_until_paid')}
          />
          <fieldset className="grid gap-2 sm:col-span-2">
            <legend className="mb-1 text-[13px] font-medium text-slate-800">Channels</legend>
            <div className="flex flex-wrap gap-x-6 gap-y-2">
              <Checkbox label="WhatsApp" {...form.register('whatsapp_on')} />
              <Checkbox label="SMS (the lab's SMS gateway)" {...form.register('sms_on')} />
              <Checkbox label="Email (the lab's mail server)" {...form.register('email_on')} />
            </div>
            {errors.whatsapp_on && <p className="text-[13px] text-red-700">{err('whatsapp_on')}</p>}
          </fieldset>
          <FormField
            label="When a message fails"
            error={err('fallback_channel')}
            hint="The channel tried next for the same person."
          >
            <Select
              options={[
                { value: 'sms', label: 'Send by SMS' },
                { value: 'email', label: 'Send by email' },
                { value: 'none', label: 'Try nothing else' },
              ]}
              {...form.register('fallback_channel')}
            />
          </FormField>
          <Checkbox
            label="Send to referring doctors too"
            hint="When the bill's doctor has a mobile number or an email address."
            {...form.register('send_to_doctors')}
          />
        </CardBody>
      </Card>

      <Card>
        <CardHeader
          icon={<Link2 />}
          title="The link"
          description="What the patient must prove before the report opens."
        />
        <CardBody className="grid gap-4 sm:grid-cols-2">
          <FormField
            label="Link expires after (days)"
            required
            error={err('link_days')}
            hint={`1 to ${LINK_DAYS_MAX}, counted from when the message left.`}
          >
            <Input type="number" inputMode="numeric" min={1} max={LINK_DAYS_MAX} {...form.register('link_days')} />
          </FormField>
          <FormField label="The patient proves who they are with" required error={err('proof')}>
            <Select options={PROOFS} {...form.register('proof')} />
          </FormField>
          <FormField label="Email" error={err('email_mode')}>
            <Select
              options={[
                { value: 'link', label: 'The link only' },
                { value: 'attach', label: 'The link and the PDF attached' },
              ]}
              {...form.register('email_mode')}
            />
          </FormField>
        </CardBody>
      </Card>

      <Card>
        <CardHeader
          icon={<MessageCircle />}
          title="WhatsApp Business"
          description="The Cloud API account: messages go as the approved template, with the link as its one parameter."
        />
        <CardBody className="grid gap-4 sm:grid-cols-2">
          <FormField
            label="API base URL"
            required
            error={err('whatsapp_base_url')}
            className="sm:col-span-2"
            hint="Meta's Graph API with its version."
          >
            <Input className="font-mono text-[13px]" spellCheck={false} {...form.register('whatsapp_base_url')} />
          </FormField>
          <FormField label="Phone number id" error={err('whatsapp_phone_number_id')}>
            <Input inputMode="numeric" autoComplete="off" {...form.register('whatsapp_phone_number_id')} />
          </FormField>
          <FormField label="Report template name" error={err('whatsapp_template')} hint="As approved by Meta.">
            <Input autoComplete="off" spellCheck={false} {...form.register('whatsapp_template')} />
          </FormField>
          <FormField
            label="Code template name"
            error={err('whatsapp_otp_template')}
            hint="An authentication template: the link page's one-time code goes by it to patients who chose WhatsApp. Empty: codes go by SMS."
          >
            <Input autoComplete="off" spellCheck={false} {...form.register('whatsapp_otp_template')} />
          </FormField>
          <FormField
            label="Template language"
            required
            error={err('whatsapp_language')}
            hint="For example en or en_US."
          >
            <Input autoComplete="off" spellCheck={false} {...form.register('whatsapp_language')} />
          </FormField>
          <SecretInput
            label="Access token"
            saved={saved.whatsapp_token_set}
            field={form.register('whatsapp_token')}
            remove={remove.whatsapp_token}
            onRemove={(r) => setRemove((x) => ({ ...x, whatsapp_token: r }))}
            error={err('whatsapp_token')}
          />
          <SecretInput
            label="App secret"
            saved={saved.whatsapp_app_secret_set}
            field={form.register('whatsapp_app_secret')}
            remove={remove.whatsapp_app_secret}
            onRemove={(r) => setRemove((x) => ({ ...x, whatsapp_app_secret: r }))}
            error={err('whatsapp_app_secret')}
          />
          <SecretInput
            label="Webhook verify token"
            saved={saved.whatsapp_verify_token_set}
            field={form.register('whatsapp_verify_token')}
            remove={remove.whatsapp_verify_token}
            onRemove={(r) => setRemove((x) => ({ ...x, whatsapp_verify_token: r }))}
            error={err('whatsapp_verify_token')}
          />
          <Address
            label="Status webhook address (Meta app)"
            path={`/api/report-delivery/webhooks/whatsapp/${saved.lab_id}`}
          />
        </CardBody>
      </Card>

      <Card>
        <CardHeader
          icon={<MessageSquareText />}
          title="SMS delivery reports"
          description="Put {ref} in the SMS gateway's template (System Settings) and give the gateway this callback: its reports mark messages delivered, and a failed one goes by the fallback channel."
        />
        <CardBody className="grid gap-4 sm:grid-cols-2">
          <SecretInput
            label="Delivery report key"
            saved={saved.sms_report_key_set}
            field={form.register('sms_report_key')}
            remove={remove.sms_report_key}
            onRemove={(r) => setRemove((x) => ({ ...x, sms_report_key: r }))}
            error={err('sms_report_key')}
          />
          <Address
            label="Callback address (POST)"
            path={`/api/report-delivery/webhooks/sms/${saved.lab_id}?key=<key>&ref=<the reference>&status=<the status>`}
          />
        </CardBody>
      </Card>

      <Card>
        <CardHeader
          icon={<Wallet />}
          title="Price per message"
          description="What the provider charges the lab, in rupees: the costs on Analytics count each message at the price when it was sent."
        />
        <CardBody className="grid gap-4 sm:grid-cols-3">
          <FormField label="WhatsApp (₹)" error={err('price_whatsapp')}>
            <Input type="number" inputMode="decimal" step="0.01" min={0} {...form.register('price_whatsapp')} />
          </FormField>
          <FormField label="SMS (₹)" error={err('price_sms')}>
            <Input type="number" inputMode="decimal" step="0.01" min={0} {...form.register('price_sms')} />
          </FormField>
          <FormField label="Email (₹)" error={err('price_email')}>
            <Input type="number" inputMode="decimal" step="0.01" min={0} {...form.register('price_email')} />
          </FormField>
        </CardBody>
      </Card>

      {formError(form) && (
        <p role="alert" className="text-sm text-red-700">
          {formError(form)}
        </p>
      )}
      <div className="flex justify-end">
        <Button type="submit" disabled={save.isPending}>
          <Save aria-hidden="true" />
          {save.isPending ? 'Saving...' : 'Save Settings'}
        </Button>
      </div>
    </form>
  );
}

/** An address the lab gives a provider, on this server. */
function Address({ label, path }: { label: string; path: string }) {
  return (
    <div className="grid content-start gap-1.5 sm:col-span-2">
      <span className="text-[13px] font-medium text-slate-800">{label}</span>
      <code className="break-all rounded bg-slate-50 px-2 py-1.5 text-[13px] text-slate-800">
        {window.location.origin}
        {path}
      </code>
    </div>
  );
}
