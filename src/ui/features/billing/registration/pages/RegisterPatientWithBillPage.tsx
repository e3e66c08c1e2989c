import { useState } from 'react';
import type { FieldErrors } from 'react-hook-form';
import { RotateCcw, UserPlus } from 'lucide-react';
import { ScreenHeader, TermsCard, Button, Card, CardBody, CardHeader } from '@/components';
import { notify } from '@/lib/notify';
import { RegistrationColumns } from '@/components/RegistrationColumns';
import {
  REGISTRATION_DEFAULTS,
  registrationFieldFor,
  registrationToApi,
  type RegistrationInput,
  type RegistrationValues,
} from '@/lib/patients/schemas';
import { notifyInvalidRegistration, useRegistrationForm } from '@/lib/patients/registrationForm';
import type { PaymentMethod } from '@shared/billing';
import type { Doctor } from '@/lib/bills';
import { BillEntry } from '../../shared/BillEntry';
import { DoctorPicker } from '../../shared/DoctorPicker';
import { useBillEntry } from '../../shared/useBillEntry';
import { useRegisterWithBillMutation, type Registration } from '../api';
import type { DiscountApproval } from '@shared/schemas/bills';
import type { PatientCreate } from '@shared/schemas/patients';
import { useDuplicatePrompt } from '@/components/PossibleDuplicatesDialog';
import { useDiscountApproval } from '../../shared/DiscountApproval';
import { RegistrationResult } from '../components/RegistrationResult';
import { VisitTypeCard, type VisitType } from '../components/VisitTypeCard';

/** Spec 9: the combined registration screen adds bank transfer to cash, card and upi. */
const REGISTRATION_PAYMENT_METHODS = [
  'cash',
  'card',
  'upi',
  'bank_transfer',
] as const satisfies readonly PaymentMethod[];

const DOCTOR_REQUIRED = 'Please select a doctor for consultation';

/** Register Patient with Bill (spec 2.11): one call creates the patient and the bill together. */
export default function RegisterPatientWithBillPage() {
  // A walk-in for tests is the usual case: no doctor needed (a referring doctor may be named).
  const [visit, setVisit] = useState<VisitType>('lab_only');
  const [doctor, setDoctor] = useState<Doctor | null>(null);
  const [doctorError, setDoctorError] = useState<string>();
  const [result, setResult] = useState<{ registration: Registration; existing: boolean } | null>(null);
  const doctorVisit = visit === 'doctor_visit';
  const entry = useBillEntry({
    consultationFee: doctorVisit ? (doctor?.consultation_fee ?? 0) : 0,
    integerPercents: true,
    methods: REGISTRATION_PAYMENT_METHODS,
  });
  const register = useRegisterWithBillMutation();
  const approval = useDiscountApproval();
  const duplicates = useDuplicatePrompt({ useLabel: 'Bill this patient', busy: register.isPending });
  const form = useRegistrationForm();
  const { errors } = form.formState;

  /** Problems outside the patient form, in the spec's order (5), as the toast to show. */
  const billProblem = (): string | null => {
    if (doctorVisit && !doctor) {
      setDoctorError(DOCTOR_REQUIRED);
      return DOCTOR_REQUIRED;
    }
    if (entry.draft.lines.length === 0) return 'Please add at least one test, profile, or package';
    entry.touchReference();
    if (entry.invalid) return 'Please correct the highlighted values';
    if (entry.unconfirmedDuplicates)
      return `Charged twice on this bill: ${entry.overlaps.map((o) => o.message).join('; ')}. Remove the duplicate, or tick "Charge them anyway".`;
    return null;
  };

  const resetAll = () => {
    form.reset(REGISTRATION_DEFAULTS);
    entry.reset();
    setVisit('lab_only');
    setDoctor(null);
    setDoctorError(undefined);
  };

  const placeServerErrors = (err: unknown) => {
    let first = true;
    for (const d of entry.placeServerErrors(err) ?? []) {
      if (d.path === 'doctor_id') setDoctorError(d.message);
      else if (d.path.startsWith('patient.')) {
        const field = registrationFieldFor(d.path.slice('patient.'.length));
        if (field) {
          form.setError(field, { type: 'server', message: d.message }, { shouldFocus: first });
          first = false;
        }
      }
    }
  };

  const onValid = (values: RegistrationValues) => {
    const problem = billProblem();
    if (problem) {
      notify.error(problem);
      return;
    }
    // The new patient, a new patient the desk confirmed is not one of those offered, or one of them.
    type Who = { patient: PatientCreate } | { patient_id: number };
    const attempt = (who: Who) => {
      const send = (discount_approval?: DiscountApproval) =>
        register
          .mutateAsync({
            ...who,
            visit_type: visit,
            doctor_id: doctor?.id ?? null,
            ...entry.request(),
            discount_approval,
          })
          .then((r) => {
            setResult({ registration: r, existing: 'patient_id' in who });
            resetAll();
          });
      // Above the biller's discount limit: an approver signs it off (the registration is then sent again).
      // Someone like this is registered already: bill them, or confirm a new patient.
      return send().catch((err: unknown) => {
        if (approval.intercept(err, send)) return;
        const offered = duplicates.intercept(err, {
          onUse: (c) => void attempt({ patient_id: c.id }),
          onConfirmNew: () => void attempt({ patient: { ...registrationToApi(values), confirm_new: true } }),
        });
        if (!offered) placeServerErrors(err);
      });
    };
    return attempt({ patient: registrationToApi(values) });
  };

  const onInvalid = (errs: FieldErrors<RegistrationInput>) => {
    billProblem();
    notifyInvalidRegistration(errs);
  };

  return (
    <div>
      <ScreenHeader subtitle="Register a new patient and create their first bill in one step" />
      {approval.dialog}
      {duplicates.dialog}
      {result && (
        <RegistrationResult result={result.registration} existing={result.existing} onDismiss={() => setResult(null)} />
      )}
      <form
        noValidate
        aria-label="Register patient with bill"
        onSubmit={(e) => void form.handleSubmit(onValid, onInvalid)(e)}
      >
        <div className="grid gap-5">
          <RegistrationColumns form={form} errors={errors} />
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
                <DoctorPicker
                  value={doctor}
                  required={doctorVisit}
                  label={doctorVisit ? 'Doctor' : 'Referring Doctor (optional)'}
                  onChange={(d) => {
                    setDoctor(d);
                    setDoctorError(undefined);
                  }}
                  error={doctorError}
                />
                {!doctorVisit && (
                  <p className="mt-2 text-[13px] text-slate-600">
                    Lab tests only: no consultation fee. A referring doctor is printed on the report.
                  </p>
                )}
              </CardBody>
            </Card>
          </div>
          <BillEntry
            entry={entry}
            items={{
              title: 'Lab Tests and Services',
              description: "From the lab's live catalogue (active items)",
              empty: 'No tests added yet. Search a picker above to add a test, profile or package.',
            }}
            lineEdits="qty"
            showConsultation={doctorVisit}
          />
          <TermsCard field={form.register('agreeToTerms')} error={errors.agreeToTerms?.message}>
            <Button variant="outline" onClick={resetAll} disabled={register.isPending}>
              <RotateCcw aria-hidden="true" />
              Reset Form
            </Button>
            <Button type="submit" loading={register.isPending} loadingText="Registering...">
              <UserPlus aria-hidden="true" />
              Register Patient &amp; Create Bill
            </Button>
          </TermsCard>
        </div>
      </form>
    </div>
  );
}
