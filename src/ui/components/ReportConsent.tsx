import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MessageSquareText } from 'lucide-react';
import { reportDeliveryApi } from '@shared/api/report-delivery';
import { PREFERRED_CHANNELS, type Consent, type PreferredChannel } from '@shared/schemas/report-delivery';
import { Button } from '@/components/Button';
import { Checkbox } from '@/components/Checkbox';
import { FormField } from '@/components/FormField';
import { Input, Select } from '@/components/Input';
import { call, fieldErrorMessage, ApiError } from '@/lib/api';
import { notify } from '@/lib/notify';
import { useLabFormat } from '@/lib/format';
import { formatLabDateTime } from '@shared/time';

const LABELS: Record<PreferredChannel, string> = {
  whatsapp: 'WhatsApp',
  sms: 'SMS',
  email: 'Email',
  none: 'No messages',
};

function ConsentForm({ patientId, consent }: { patientId: number; consent: Consent }) {
  const qc = useQueryClient();
  const lab = useLabFormat();
  const [channel, setChannel] = useState<PreferredChannel>(consent.channel);
  const [given, setGiven] = useState(consent.consent);
  const [phone, setPhone] = useState(consent.recipient_phone ?? '');
  const save = useMutation({
    mutationFn: () =>
      call(reportDeliveryApi.saveConsent, {
        params: { id: patientId },
        body: { channel, consent: given, recipient_phone: phone.trim() || null },
      }),
    onSuccess: (r) => {
      qc.setQueryData(['report-consent', patientId], r.consent);
      notify.success(
        r.consent.consent ? 'Consent recorded' : 'No report messages',
        'Report delivery saved for this patient.',
      );
    },
    onError: (err) => {
      if (!(err instanceof ApiError && err.status === 400)) notify.error('Could not save report delivery', err);
    },
  });
  const fieldError = (path: string) =>
    save.error instanceof ApiError && save.error.details.some((d) => d.path === path)
      ? fieldErrorMessage(save.error)
      : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} className="grid gap-3 sm:grid-cols-3" noValidate>
      <FormField label="Send reports by" error={fieldError('channel')}>
        <Select
          value={channel}
          onChange={(e) => setChannel(e.target.value as PreferredChannel)}
          options={PREFERRED_CHANNELS.map((c) => ({ value: c, label: LABELS[c] }))}
        />
      </FormField>
      <FormField
        label="Send to number (if not the patient's)"
        hint="A parent's, for a child"
        error={fieldError('recipient_phone')}
      >
        <Input inputMode="tel" value={phone} onChange={(e) => setPhone(e.target.value)} />
      </FormField>
      <div className="flex flex-col justify-end gap-2">
        <Checkbox
          label="The patient agrees to receive reports as a link"
          checked={given}
          onChange={(e) => setGiven(e.target.checked)}
          hint={
            consent.consent && consent.consent_at
              ? `Recorded ${formatLabDateTime(consent.consent_at, lab)}${consent.consent_by_name ? ` by ${consent.consent_by_name}` : ''}`
              : consent.withdrawn_at
                ? `Withdrawn ${formatLabDateTime(consent.withdrawn_at, lab)}`
                : undefined
          }
        />
        <Button type="submit" size="sm" variant="outline" loading={save.isPending} loadingText="Saving...">
          Save report delivery
        </Button>
      </div>
    </form>
  );
}

/**
 * The patient's report delivery: preferred channel, a number that may be someone else's, and the
 * consent, recorded by the server with who took it and when (no consent, no message).
 */
export function ReportConsent({ patientId }: { patientId: number }) {
  const q = useQuery({
    queryKey: ['report-consent', patientId],
    queryFn: ({ signal }) =>
      call(reportDeliveryApi.consent, { params: { id: patientId } }, signal).then((r) => r.consent),
  });
  return (
    <section aria-label="Report delivery" className="rounded-md bg-white/70 p-3 ring-1 ring-slate-200">
      <h3 className="mb-2 flex items-center gap-2 text-sm font-semibold text-slate-900">
        <MessageSquareText className="size-4" aria-hidden="true" />
        Report delivery
      </h3>
      {q.isPending ? (
        <p className="text-[13px] text-slate-600">Loading...</p>
      ) : q.isError ? (
        <p role="alert" className="text-[13px] text-red-800">
          Could not load report delivery: {fieldErrorMessage(q.error)}
        </p>
      ) : (
        <ConsentForm key={q.data.consent_at ?? 'none'} patientId={patientId} consent={q.data} />
      )}
    </section>
  );
}
