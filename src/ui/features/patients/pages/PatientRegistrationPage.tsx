import { PortalPinOffer } from '@/components/PortalPinOffer';
import { ReportConsent } from '@/components/ReportConsent';
import { useEffect, useRef, useState } from 'react';
import type { FieldErrors } from 'react-hook-form';
import { CheckCircle2, RotateCcw, UserPlus } from 'lucide-react';
import type { Patient } from '@shared/schemas/patients';
import { ScreenHeader, TermsCard, Button, Card, CardBody, LinkButton } from '@/components';
import { notify } from '@/lib/notify';
import { applyServerErrors } from '@/lib/forms';
import { useCreatePatientMutation } from '@/lib/patients/queries';
import { call } from '@/lib/api';
import { patientsApi } from '@shared/api/patients';
import { useDuplicatePrompt } from '@/components/PossibleDuplicatesDialog';
import {
  REGISTRATION_DEFAULTS,
  registrationFieldFor,
  registrationToApi,
  type RegistrationInput,
  type RegistrationValues,
} from '@/lib/patients/schemas';
import { notifyInvalidRegistration, useRegistrationForm } from '@/lib/patients/registrationForm';
import { RegistrationColumns } from '@/components/RegistrationColumns';

function SuccessPanel({
  patient,
  existing,
  onAnother,
}: {
  patient: Patient;
  /** The desk picked a patient already registered instead of registering again. */
  existing: boolean;
  onAnother: () => void;
}) {
  // Focus moves to the result so keyboard and screen-reader users land on the new code (and it scrolls into view).
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [patient.id]);
  return (
    <Card className="mb-5 border-green-200 bg-green-50" role="status" aria-live="polite">
      <CardBody className="flex flex-wrap items-start gap-3">
        <CheckCircle2 className="mt-0.5 size-6 shrink-0 text-green-600" aria-hidden="true" />
        <div className="min-w-0 flex-1">
          <h2 ref={heading} tabIndex={-1} className="font-semibold text-green-900 focus:outline-none">
            {existing ? 'Existing patient selected' : 'Patient registered successfully'}
          </h2>
          <p className="mt-1 text-green-900">
            {patient.first_name} {patient.last_name} {existing ? 'is already registered with' : 'has'} Patient ID{' '}
            <strong className="font-mono text-base" data-testid="registered-patient-id">
              {patient.patient_id}
            </strong>
            .{' '}
            {existing
              ? 'Nothing new was registered.'
              : 'Give this ID to the patient; it identifies them at every visit.'}
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <LinkButton to={`/patients?search=${encodeURIComponent(patient.patient_id)}`} variant="outline" size="sm">
              View All Patients
            </LinkButton>
            {!existing && <PortalPinOffer patientId={patient.id} patientCode={patient.patient_id} />}
            <Button size="sm" variant="outline" onClick={onAnother}>
              <UserPlus />
              Register Another Patient
            </Button>
          </div>
          <div className="mt-3">
            <ReportConsent patientId={patient.id} />
          </div>
        </div>
      </CardBody>
    </Card>
  );
}

/** New Patient Registration (spec 2.10): the full form, saved with POST /api/patients. */
export default function PatientRegistrationPage() {
  const [registered, setRegistered] = useState<{ patient: Patient; existing: boolean } | null>(null);
  const create = useCreatePatientMutation({
    successTitle: 'Patient registered successfully',
    failureTitle: 'Failed to register patient. Please try again.',
  });
  const duplicates = useDuplicatePrompt({ busy: create.isPending });
  // react-hook-form focuses fields in registration order, and the terms box registers before the
  // sections do; onInvalid focuses the first bad field in screen order instead.
  const form = useRegistrationForm({ shouldFocusError: false });
  const { errors } = form.formState;

  const done = (patient: Patient, existing: boolean) => {
    setRegistered({ patient, existing });
    form.reset(REGISTRATION_DEFAULTS);
  };

  const save = (values: RegistrationValues, confirmNew: boolean): Promise<void> =>
    create.mutateAsync({ ...registrationToApi(values), ...(confirmNew ? { confirm_new: true } : {}) }).then(
      (patient) => done(patient, false),
      (err: unknown) => {
        // Someone like this is registered already: the desk picks them, or confirms a new patient.
        const offered = duplicates.intercept(err, {
          onUse: (c) =>
            void call(patientsApi.get, { params: { id: c.id } }).then(
              (r) => done(r.patient, true),
              (e: unknown) => notify.error('Could not open the existing patient', e),
            ),
          onConfirmNew: () => void save(values, true),
        });
        if (!offered) applyServerErrors(err, form.setError, registrationFieldFor);
      },
    );
  const onValid = (values: RegistrationValues) => save(values, false);

  const onInvalid = (errs: FieldErrors<RegistrationInput>) => {
    const first = (Object.keys(REGISTRATION_DEFAULTS) as (keyof RegistrationInput)[]).find((k) => k in errs);
    if (first) form.setFocus(first);
    notifyInvalidRegistration(errs);
  };

  const resetForm = () => {
    form.reset(REGISTRATION_DEFAULTS);
    setRegistered(null);
    form.setFocus('firstName');
  };

  return (
    <div>
      <ScreenHeader />
      {duplicates.dialog}
      {registered && <SuccessPanel patient={registered.patient} existing={registered.existing} onAnother={resetForm} />}
      <form
        noValidate
        onSubmit={(e) => void form.handleSubmit(onValid, onInvalid)(e)}
        aria-label="New patient registration"
      >
        <RegistrationColumns form={form} errors={errors} />
        <TermsCard className="mt-5" field={form.register('agreeToTerms')} error={errors.agreeToTerms?.message}>
          <Button variant="outline" onClick={resetForm} disabled={create.isPending}>
            <RotateCcw />
            Reset Form
          </Button>
          <Button type="submit" loading={create.isPending} loadingText="Registering...">
            <UserPlus />
            Register Patient
          </Button>
        </TermsCard>
      </form>
    </div>
  );
}
