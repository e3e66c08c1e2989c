import { CheckCircle2, XCircle } from 'lucide-react';
import { Card, CardBody, DateText, LoadingState } from '@/components';
import { useReportVerification } from '../api';

/**
 * The page a report's QR code opens (/verify-report#<token>), without sign-in: whether the report is
 * genuine, and only the patient's initials, the sample, its verified tests and when this was checked.
 */
export default function VerifyReportPage() {
  const token = decodeURIComponent(window.location.hash.replace(/^#/, ''));
  const q = useReportVerification(token);
  return (
    <main className="mx-auto max-w-lg p-4 sm:p-8">
      <h1 className="mb-4 text-xl font-semibold text-slate-900">Report Verification</h1>
      <Card>
        <CardBody>
          {token === '' ? (
            <p className="text-[14px]">Scan the QR code printed on a lab report to verify it.</p>
          ) : q.isPending ? (
            <LoadingState text="Checking the report..." />
          ) : q.isError ? (
            <div role="alert" className="flex gap-3 text-red-900">
              <XCircle className="size-6 shrink-0" aria-hidden="true" />
              <div>
                <p className="font-semibold">This report could not be verified</p>
                <p className="text-[14px]">
                  The link is not one this laboratory issued, or it was changed. Do not rely on the report; contact the
                  laboratory.
                </p>
              </div>
            </div>
          ) : (
            <div>
              <p className="flex items-center gap-2 font-semibold text-green-800">
                <CheckCircle2 className="size-6" aria-hidden="true" />
                Genuine report of {q.data.lab_name}
              </p>
              <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-[14px]">
                <dt className="text-slate-600">Patient</dt>
                <dd>{q.data.patient_initials}</dd>
                <dt className="text-slate-600">Sample</dt>
                <dd>{q.data.sample_code}</dd>
                <dt className="text-slate-600">Collected</dt>
                <dd>{q.data.collected_at ? <DateText value={q.data.collected_at} withTime /> : '—'}</dd>
                <dt className="text-slate-600">Reported</dt>
                <dd>{q.data.reported_at ? <DateText value={q.data.reported_at} withTime /> : 'Not complete yet'}</dd>
                <dt className="text-slate-600">Verified tests</dt>
                <dd>
                  {q.data.tests.length ? (
                    <ul>
                      {q.data.tests.map((t) => (
                        <li key={t.name}>{t.name}</li>
                      ))}
                    </ul>
                  ) : (
                    'None yet'
                  )}
                </dd>
                <dt className="text-slate-600">Checked</dt>
                <dd>
                  <DateText value={q.data.verified_at} withTime />
                </dd>
              </dl>
            </div>
          )}
        </CardBody>
      </Card>
    </main>
  );
}
