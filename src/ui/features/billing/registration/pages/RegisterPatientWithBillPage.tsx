import { useState, type ReactNode } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { RotateCcw, UserPlus } from 'lucide-react';
import { Button, Card, CardBody, CardHeader, Checkbox, PageHeader } from '@/components';
import { useScreen } from '@/lib/screens';
import { ApiError } from '@/lib/api';
import { notify } from '@/lib/notify';
import { PatientFormSections } from '@/components/PatientFormSections';
import { REGISTRATION_NAMES, REGISTRATION_REQUIRED } from '@/lib/patients/registrationFields';
import {
  REGISTRATION_DEFAULTS,
  registrationFieldFor,
  registrationSchema,
  registrationToApi,
  type RegistrationInput,
  type RegistrationValues,
} from '@/lib/patients/schemas';
import type { Doctor } from '@/lib/bills';
import { CataloguePickers } from '../../shared/CataloguePickers';
import { DoctorPicker } from '../../shared/DoctorPicker';
import { lineErrorPath, toItems } from '../../shared/lines';
import { amountPaid, amountPaidError } from '../../shared/PaymentFields';
import { useBillDraft } from '../../shared/useBillDraft';
import { useRegisterWithBillMutation, type Registration } from '../api';
import { RegistrationLines } from '../components/RegistrationLines';
import { RegistrationResult } from '../components/RegistrationResult';
import { RegistrationSummary, type RegistrationPaymentMethod } from '../components/RegistrationSummary';
import { VisitTypeCard, type VisitType } from '../components/VisitTypeCard';

const DOCTOR_REQUIRED = 'Please select a doctor for consultation';

const section = (_key: string, title: string, body: ReactNode) => (
  <Card>
    <CardHeader title={title} />
    <CardBody>{body}</CardBody>
  </Card>
);

/** Register Patient with Bill (spec 2.11): one call creates the patient and the bill together. */
export default function RegisterPatientWithBillPage() {
  const screen = useScreen();
  const [visit, setVisit] = useState<VisitType>('doctor_visit');
  const [doctor, setDoctor] = useState<Doctor | null>(null);
  const [doctorError, setDoctorError] = useState<string>();
  const [method, setMethod] = useState<RegistrationPaymentMethod>('cash');
  const [amount, setAmount] = useState('');
  const [serverErrors, setServerErrors] = useState<{ discount?: string; tax?: string; amount?: string }>({});
  const [result, setResult] = useState<Registration | null>(null);
  const doctorVisit = visit === 'doctor_visit';
  const draft = useBillDraft({
    consultationFee: doctorVisit ? (doctor?.consultation_fee ?? 0) : 0,
    integerPercents: true,
  });
  const register = useRegisterWithBillMutation();
  const form = useForm<RegistrationInput, unknown, RegistrationValues>({
    resolver: zodResolver(registrationSchema),
    defaultValues: REGISTRATION_DEFAULTS,
    mode: 'onBlur',
  });
  const { errors } = form.formState;
  const amountError = amountPaidError(amount, draft.amounts.finalPaise);

  /** Problems outside the patient form, in the spec's order (5), as the toast to show. */
  const billProblem = (): string | null => {
    if (doctorVisit && !doctor) {
      setDoctorError(DOCTOR_REQUIRED);
      return DOCTOR_REQUIRED;
    }
    if (draft.lines.length === 0) return 'Please add at least one test, profile, or package';
    if (draft.hasErrors || amountError) return 'Please correct the highlighted values';
    return null;
  };

  const resetAll = () => {
    form.reset(REGISTRATION_DEFAULTS);
    draft.reset();
    setVisit('doctor_visit');
    setDoctor(null);
    setDoctorError(undefined);
    setMethod('cash');
    setAmount('');
    setServerErrors({});
  };

  const placeServerErrors = (err: unknown) => {
    if (!(err instanceof ApiError) || err.status !== 400) return;
    const lines: Record<number, string> = {};
    const other: typeof serverErrors = {};
    let first = true;
    for (const d of err.details) {
      const line = lineErrorPath(d.path);
      if (line) lines[line.index] = d.message;
      else if (d.path === 'doctor_id') setDoctorError(d.message);
      else if (d.path === 'discount_percentage') other.discount = d.message;
      else if (d.path === 'tax_percentage') other.tax = d.message;
      else if (d.path === 'amount_paid' || d.path === 'amount') other.amount = d.message;
      else if (d.path.startsWith('patient.')) {
        const field = registrationFieldFor(d.path.slice('patient.'.length));
        if (field) {
          form.setError(field, { type: 'server', message: d.message }, { shouldFocus: first });
          first = false;
        }
      }
    }
    draft.setLineServerErrors(lines);
    setServerErrors(other);
  };

  const onValid = (values: RegistrationValues) => {
    const problem = billProblem();
    if (problem) {
      notify.error(problem);
      return;
    }
    return register
      .mutateAsync({
        patient: registrationToApi(values),
        visit_type: visit,
        doctor_id: doctorVisit ? (doctor?.id ?? null) : null,
        items: toItems(draft.lines),
        discount_percentage: draft.discountPercent,
        tax_percentage: draft.taxPercent,
        payment_method: method,
        amount_paid: amountPaid(amount),
      })
      .then((r) => {
        setResult(r);
        resetAll();
      }, placeServerErrors);
  };

  // Spec 8: the terms message when only the box is missing, else the general one.
  const onInvalid = (errs: FieldErrors<RegistrationInput>) => {
    billProblem();
    const keys = Object.keys(errs);
    if (keys.length === 1 && keys[0] === 'agreeToTerms') notify.error('Please agree to the terms and conditions');
    else
      notify.error(
        'Please fill in all required fields',
        `${keys.length} field${keys.length === 1 ? ' needs' : 's need'} attention`,
      );
  };

  return (
    <div>
      <PageHeader title={screen.title} subtitle="Register a new patient and create their first bill in one step" />
      {result && <RegistrationResult result={result} onDismiss={() => setResult(null)} />}
      <form
        noValidate
        aria-label="Register patient with bill"
        onSubmit={(e) => void form.handleSubmit(onValid, onInvalid)(e)}
      >
        <div className="grid gap-5">
          <div className="grid gap-5 lg:grid-cols-2 lg:items-start">
            <PatientFormSections
              register={form.register}
              errors={errors}
              names={REGISTRATION_NAMES}
              required={REGISTRATION_REQUIRED}
              sections={['personal', 'contact']}
              labels={{ phone: 'Mobile Number' }}
              renderSection={section}
            />
            <PatientFormSections
              register={form.register}
              errors={errors}
              names={REGISTRATION_NAMES}
              required={REGISTRATION_REQUIRED}
              sections={['emergency', 'medical', 'insurance']}
              labels={{ emergency_phone: 'Emergency Contact Number' }}
              renderSection={section}
            />
          </div>
          <div className="grid gap-5 lg:grid-cols-2 lg:items-start">
            <VisitTypeCard
              value={visit}
              onChange={(v) => {
                setVisit(v);
                setDoctorError(undefined);
              }}
            />
            <Card>
              <CardHeader title="Doctor Selection" />
              <CardBody>
                {doctorVisit ? (
                  <DoctorPicker
                    value={doctor}
                    required
                    onChange={(d) => {
                      setDoctor(d);
                      setDoctorError(undefined);
                    }}
                    error={doctorError}
                  />
                ) : (
                  <p className="text-sm text-slate-600">
                    Lab tests only: no doctor and no consultation fee on this bill.
                  </p>
                )}
              </CardBody>
            </Card>
          </div>
          <Card>
            <CardHeader title="Lab Tests and Services" description="From the lab's live catalogue (active items)" />
            <CardBody className="grid gap-4">
              <CataloguePickers key={draft.generation} onAdd={draft.addItem} />
              {draft.lines.length === 0 ? (
                <p className="rounded-md border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-600">
                  No tests added yet. Search a picker above to add a test, profile or package.
                </p>
              ) : (
                <RegistrationLines
                  lines={draft.lines}
                  amounts={draft.amounts.lines}
                  onQty={(key, v) => draft.changeLine(key, 'qty', v)}
                  onQtyBlur={(key) => draft.blurLine(key, 'qty')}
                  onRemove={draft.removeLine}
                  serverErrors={draft.lineServerErrors}
                />
              )}
            </CardBody>
          </Card>
          <RegistrationSummary
            amounts={draft.amounts}
            doctorVisit={doctorVisit}
            discount={draft.discount}
            tax={draft.tax}
            onDiscount={(v) => {
              draft.setDiscount(v);
              setServerErrors((e) => ({ ...e, discount: undefined }));
            }}
            onTax={(v) => {
              draft.setTax(v);
              setServerErrors((e) => ({ ...e, tax: undefined }));
            }}
            onPercentBlur={draft.blurPercent}
            discountError={draft.discountError ?? serverErrors.discount}
            taxError={draft.taxError ?? serverErrors.tax}
            method={method}
            onMethod={setMethod}
            amount={amount}
            onAmount={(v) => {
              setAmount(v);
              setServerErrors((e) => ({ ...e, amount: undefined }));
            }}
            amountError={amountError ?? serverErrors.amount}
          />
          <Card>
            <CardHeader title="Terms and Conditions" />
            <CardBody className="grid gap-4">
              <div>
                <Checkbox
                  label="I confirm these details are correct and the patient agrees to the terms and conditions, including the storage of their health information by this laboratory."
                  aria-invalid={errors.agreeToTerms ? true : undefined}
                  aria-describedby={errors.agreeToTerms ? 'terms-error' : undefined}
                  {...form.register('agreeToTerms')}
                />
                {errors.agreeToTerms?.message && (
                  <p id="terms-error" className="mt-1 ml-6 text-[13px] text-red-700">
                    {errors.agreeToTerms.message}
                  </p>
                )}
              </div>
              <div className="flex flex-wrap justify-end gap-2">
                <Button variant="outline" onClick={resetAll} disabled={register.isPending}>
                  <RotateCcw aria-hidden="true" />
                  Reset Form
                </Button>
                <Button type="submit" loading={register.isPending} loadingText="Registering...">
                  <UserPlus aria-hidden="true" />
                  Register Patient &amp; Create Bill
                </Button>
              </div>
            </CardBody>
          </Card>
        </div>
      </form>
    </div>
  );
}
