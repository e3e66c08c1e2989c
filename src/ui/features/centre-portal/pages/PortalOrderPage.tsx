import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Send, X } from 'lucide-react';
import type { z } from 'zod';
import type { portalTestSchema } from '@shared/schemas/centre-portal';
import { Button, Card, FormField, IconButton, Money, ScreenHeader, Select, Textarea } from '@/components';
import { SearchPicker } from '@/components/SearchPicker';
import { errorMessage } from '@/lib/api';
import { useFieldForm } from '@/lib/forms';
import { useDebounce } from '@/lib/useDebounce';
import { usePortalOrderMutation, usePortalPatients, usePortalTests } from '../api';
import { HoldNotice } from '../components/HoldNotice';

type PortalTest = z.infer<typeof portalTestSchema>;

/**
 * Tests for one of the centre's patients, at the centre's prices. No money is taken: the bill goes
 * on the centre's account and is settled by statement. While the centre is on hold the lab refuses
 * the order, and the reason shows above the form and again as the refusal.
 */
export default function PortalOrderPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const patients = usePortalPatients('');
  const [query, setQuery] = useState('');
  const tests = usePortalTests(useDebounce(query.trim()));
  const order = usePortalOrderMutation();
  const form = useFieldForm(() => ({ patient_id: params.get('patient') ?? '', tests: [] as PortalTest[], notes: '' }), {
    clearOnEdit: true,
  });
  const { values, errors } = form;
  const total = values.tests.reduce((sum, t) => sum + Math.round(t.price * 100), 0) / 100;
  const add = (t: PortalTest) => {
    if (!values.tests.some((x) => x.id === t.id)) form.set('tests', [...values.tests, t]);
    setQuery('');
  };
  const submit = () =>
    order.mutate(
      {
        patient_id: Number(values.patient_id) || 0,
        test_ids: values.tests.map((t) => t.id),
        notes: values.notes.trim() || undefined,
      },
      { onSuccess: (b) => void navigate(`/centre-portal/bills?bill=${b.id}`), onError: form.showErrors },
    );
  return (
    <>
      <ScreenHeader />
      <HoldNotice />
      <Card className="grid max-w-3xl gap-4 p-4">
        {errors.form && (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
            {errors.form}
          </p>
        )}
        <FormField
          label="Patient"
          required
          error={errors.patient_id}
          hint="Register a new patient first under Centre Patients."
        >
          <Select
            placeholder={patients.isPending ? 'Loading patients…' : 'Select patient'}
            value={values.patient_id}
            onChange={(e) => form.set('patient_id', e.target.value)}
            options={(patients.data ?? []).map((p) => ({
              value: String(p.id),
              label: `${p.name} · ${p.patient_code}`,
            }))}
          />
        </FormField>
        <SearchPicker
          label="Add a test"
          placeholder="Type a test name or code"
          query={query}
          onQueryChange={setQuery}
          options={tests.data}
          getKey={(t) => t.id}
          renderOption={(t) => (
            <span className="flex w-full justify-between gap-3">
              <span className="min-w-0 truncate">
                {t.name} <span className="font-mono text-[13px] text-slate-600">{t.code}</span>
              </span>
              <Money rupees={t.price} />
            </span>
          )}
          onSelect={add}
          loading={tests.isFetching}
          loadError={tests.isError ? errorMessage(tests.error) : undefined}
          error={errors.test_ids}
          emptyText={`No test matches "${query}"`}
          openOnFocus
          required
        />
        <section aria-label="Tests on this order" className="grid gap-1">
          {values.tests.length === 0 ? (
            <p className="text-sm text-slate-600">No tests added yet.</p>
          ) : (
            <ul className="divide-y divide-slate-200 rounded-md border border-slate-200">
              {values.tests.map((t) => (
                <li key={t.id} className="flex items-center gap-3 px-3 py-2 text-sm">
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium text-slate-900">{t.name}</span>
                    <span className="block text-[13px] text-slate-600">
                      {t.code}
                      {t.sample_type ? ` · ${t.sample_type}` : ''}
                    </span>
                  </span>
                  <Money rupees={t.price} />
                  <IconButton
                    label={`Remove ${t.name}`}
                    icon={<X />}
                    onClick={() =>
                      form.set(
                        'tests',
                        values.tests.filter((x) => x.id !== t.id),
                      )
                    }
                  />
                </li>
              ))}
              <li className="flex justify-between px-3 py-2 text-sm font-semibold">
                <span>Total on your account</span>
                <Money rupees={total} />
              </li>
            </ul>
          )}
        </section>
        <FormField label="Notes" error={errors.notes}>
          <Textarea rows={2} value={values.notes} onChange={(e) => form.set('notes', e.target.value)} />
        </FormField>
        <div className="flex justify-end">
          <Button onClick={submit} disabled={order.isPending}>
            <Send />
            {order.isPending ? 'Ordering...' : 'Order Tests'}
          </Button>
        </div>
      </Card>
    </>
  );
}
