import { useState, type FormEvent } from 'react';
import { CheckCircle2, Download, FileText, Phone, XCircle } from 'lucide-react';
import { Badge, Button, Card, CardBody, DateText, FormField, Input, LoadingState } from '@/components';
import { ApiError, errorMessage, fieldErrorMessage } from '@/lib/api';
import type { LinkOpened, LinkReport } from '@shared/schemas/report-delivery';
import { useLinkOpen, useProveMutation, useReportPdfMutation, useSendCodeMutation } from '../api';

const ASK: Record<LinkOpened['proof'], { label: string; hint: string; length: number }> = {
  birth_year: { label: 'Your year of birth', hint: 'Four digits, for example 1980', length: 4 },
  mobile_last4: { label: 'Last 4 digits of your mobile number', hint: 'The number the lab has for you', length: 4 },
  otp: { label: 'The code we sent you', hint: 'Six digits; it expires in 10 minutes', length: 6 },
};

/** A link that no longer opens (expired, revoked, replaced, closed) or never did: what happened and whom to call. */
function Refused({ error }: { error: unknown }) {
  const gone = error instanceof ApiError && error.status === 410;
  const phone = /Call the lab on ([^.]+)\./.exec(errorMessage(error))?.[1];
  return (
    <div role="alert" className="flex gap-3 text-red-900">
      <XCircle className="size-6 shrink-0" aria-hidden="true" />
      <div className="space-y-2">
        <p className="font-semibold">{gone ? 'This link no longer opens' : 'This link cannot be opened'}</p>
        <p className="text-[14px]">{errorMessage(error)}</p>
        {phone && (
          <a
            className="inline-flex items-center gap-2 font-medium text-blue-700 underline"
            href={`tel:${phone.replace(/\s/g, '')}`}
          >
            <Phone className="size-4" aria-hidden="true" />
            {phone}
          </a>
        )}
      </div>
    </div>
  );
}

function Report({ report, token, answer }: { report: LinkReport; token: string; answer: string }) {
  const pdf = useReportPdfMutation();
  const download = () =>
    pdf.mutate(
      { token, answer },
      {
        onSuccess: (blob) => {
          const url = URL.createObjectURL(blob);
          const a = document.createElement('a');
          a.href = url;
          a.download = `report-${report.sample_code}.pdf`;
          a.click();
          setTimeout(() => URL.revokeObjectURL(url), 60_000);
        },
      },
    );
  return (
    <div className="space-y-4">
      <p className="flex items-center gap-2 font-semibold text-green-800">
        <CheckCircle2 className="size-6" aria-hidden="true" />
        Hello {report.patient_first_name}, your report is ready
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-[14px]">
        <dt className="text-slate-600">Lab</dt>
        <dd>{report.lab.name}</dd>
        <dt className="text-slate-600">Sample</dt>
        <dd>
          {report.sample_code} {report.amended && <Badge tone="amber">Amended</Badge>}
        </dd>
        <dt className="text-slate-600">Reported</dt>
        <dd>{report.reported_at ? <DateText value={report.reported_at} withTime /> : '—'}</dd>
        <dt className="text-slate-600">Tests</dt>
        <dd>
          <ul>
            {report.tests.map((t) => (
              <li key={t}>{t}</li>
            ))}
          </ul>
        </dd>
      </dl>
      <Button className="w-full sm:w-auto" onClick={download} disabled={pdf.isPending}>
        <Download />
        {pdf.isPending ? 'Preparing the PDF...' : 'Download the report (PDF)'}
      </Button>
      {pdf.isError && (
        <p role="alert" className="text-[14px] text-red-800">
          {errorMessage(pdf.error)}
        </p>
      )}
    </div>
  );
}

/**
 * The page a report link opens (/report-link#<token>, also the report's QR code), without sign-in:
 * the patient answers what the lab chose (year of birth, mobile digits or a code by SMS), then sees
 * which report it is and downloads the PDF. Wrong answers are counted by the server.
 */
export default function ReportLinkPage() {
  const token = decodeURIComponent(window.location.hash.replace(/^#/, ''));
  const opened = useLinkOpen(token);
  const prove = useProveMutation();
  const sendCode = useSendCodeMutation();
  const [answer, setAnswer] = useState('');
  const [proved, setProved] = useState<{ report: LinkReport; answer: string } | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    prove.mutate(
      { token, answer: answer.trim() },
      { onSuccess: (report) => setProved({ report, answer: answer.trim() }) },
    );
  };
  const gone = prove.error instanceof ApiError && (prove.error.status === 410 || prove.error.status === 404);
  return (
    <main className="mx-auto max-w-lg p-4 sm:p-8">
      <h1 className="mb-1 flex items-center gap-2 text-xl font-semibold text-slate-900">
        <FileText className="size-5" aria-hidden="true" />
        Your Lab Report
      </h1>
      {opened.data && <p className="mb-4 text-[14px] text-slate-600">{opened.data.lab.name}</p>}
      <Card>
        <CardBody>
          {token === '' ? (
            <p className="text-[14px]">Open the link the lab sent you, or scan the QR code on your printed report.</p>
          ) : opened.isPending ? (
            <LoadingState text="Opening the link..." />
          ) : opened.isError ? (
            <Refused error={opened.error} />
          ) : proved ? (
            <Report report={proved.report} token={token} answer={proved.answer} />
          ) : gone ? (
            <Refused error={prove.error} />
          ) : (
            <form onSubmit={submit} className="space-y-4" noValidate>
              {opened.data.amended && (
                <p className="text-[14px]">
                  <Badge tone="amber">Amended</Badge> The lab corrected this report; this is the new version.
                </p>
              )}
              <p className="text-[14px]">To keep your report private, please confirm who you are.</p>
              {opened.data.proof === 'otp' && (
                <div className="space-y-2">
                  <Button
                    type="button"
                    variant="outline"
                    disabled={sendCode.isPending}
                    onClick={() => sendCode.mutate(token)}
                  >
                    {sendCode.isPending ? 'Sending...' : sendCode.isSuccess ? 'Send the code again' : 'Send me a code'}
                  </Button>
                  {sendCode.isSuccess && (
                    <p className="text-[14px]">
                      A code was sent by {sendCode.data.channel === 'whatsapp' ? 'WhatsApp' : 'SMS'} to{' '}
                      {sendCode.data.sent_to}.
                    </p>
                  )}
                  {sendCode.isError && (
                    <p role="alert" className="text-[14px] text-red-800">
                      {errorMessage(sendCode.error)}
                    </p>
                  )}
                </div>
              )}
              <FormField
                label={ASK[opened.data.proof].label}
                hint={ASK[opened.data.proof].hint}
                error={prove.isError ? fieldErrorMessage(prove.error) : undefined}
                required
              >
                <Input
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={ASK[opened.data.proof].length}
                  value={answer}
                  onChange={(e) => setAnswer(e.target.value.replace(/\D/g, ''))}
                />
              </FormField>
              <Button type="submit" className="w-full sm:w-auto" disabled={prove.isPending || answer.trim() === ''}>
                {prove.isPending ? 'Checking...' : 'Open my report'}
              </Button>
            </form>
          )}
        </CardBody>
      </Card>
    </main>
  );
}
