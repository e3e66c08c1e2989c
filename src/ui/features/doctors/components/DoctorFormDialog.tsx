import { doctorTitledName } from '@shared/person-name';
import { useWatch, type DefaultValues } from 'react-hook-form';
import { z } from 'zod';
import {
  DOCTOR_STATUSES,
  DOCTOR_STATUS_LABELS,
  doctorCreateFields,
  type Doctor,
  type DoctorCreateInput,
  type DoctorUpdate,
} from '@shared/schemas/doctors';
import {
  Checkbox,
  FormDialog,
  FormField,
  Input,
  NewPasswordFields,
  PersonNameFields,
  PhoneAndSpecialization,
  Select,
  staffPersonBody,
  staffPersonDefaults,
} from '@/components';
import { applyServerErrors, fieldNamed, formError } from '@/lib/forms';
import { useDialogForm } from '@/lib/dialogForm';
import { useCreateDoctorMutation, useUpdateDoctorMutation } from '../api';
import { schemaFields } from '@/lib/schemaFields';

/**
 * The server's fields and rules (doctorCreateFields) plus the confirmation box. The password is
 * asked for only when the doctor is to sign in and has no password yet (a new doctor, or one who
 * could not sign in until now); an existing password is kept unless a new one is typed.
 */
function formSchema(needsPassword: boolean) {
  return doctorCreateFields.extend({ password: z.string(), confirm_password: z.string() }).superRefine((v, ctx) => {
    if (v.can_sign_in && !v.email) {
      ctx.addIssue({ code: 'custom', path: ['email'], message: 'An email is required for a doctor who signs in' });
    }
    if (!v.can_sign_in) return;
    if (v.password === '' && needsPassword) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'Set a password for a doctor who signs in' });
    } else if (v.password !== '' && v.password.length < 8) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'Password must be at least 8 characters' });
    }
    if (v.password !== v.confirm_password) {
      ctx.addIssue({ code: 'custom', path: ['confirm_password'], message: 'Passwords do not match' });
    }
  });
}
type Schema = ReturnType<typeof formSchema>;
type FormIn = z.input<Schema>;

function defaults(d: Doctor | null): DefaultValues<FormIn> {
  return {
    ...staffPersonDefaults(d),
    qualification: d?.qualification ?? '',
    experience_years: d?.experience_years === null || d === null ? '' : String(d.experience_years),
    consultation_fee: d ? String(d.consultation_fee) : '0',
    registration_number: d?.registration_number ?? '',
    status: d?.status ?? 'active',
    can_sign_in: d?.can_sign_in ?? false,
    password: '',
    confirm_password: '',
  };
}

export interface DoctorFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** null: Add Doctor; a doctor: Edit that doctor. */
  doctor: Doctor | null;
}

/** Add Doctor and Edit Doctor: POST /api/doctors, PUT /api/doctors/:id; the server's 400s show under their fields. */
export function DoctorFormDialog({ open, onOpenChange, doctor }: DoctorFormDialogProps) {
  const create = useCreateDoctorMutation();
  const update = useUpdateDoctorMutation();
  const busy = create.isPending || update.isPending;
  const needsPassword = !doctor?.can_sign_in;

  const form = useDialogForm(formSchema(needsPassword), open, doctor, defaults);
  const { errors } = form.formState;

  const canSignIn = useWatch({ control: form.control, name: 'can_sign_in' }) ?? false;

  const showServerErrors = (err: unknown) =>
    applyServerErrors(err, form.setError, fieldNamed(schemaFields(doctorCreateFields)), { EMAIL_TAKEN: 'email' });

  const onSubmit = form.handleSubmit((v) => {
    const fields = {
      ...staffPersonBody(v),
      email: v.email ?? null,
      qualification: v.qualification ?? null,
      experience_years: v.experience_years ?? null,
      consultation_fee: v.consultation_fee ?? 0,
      registration_number: v.registration_number ?? null,
      status: v.status,
      can_sign_in: v.can_sign_in,
      ...(v.can_sign_in && v.password ? { password: v.password } : {}),
    };
    if (!doctor) {
      const body: DoctorCreateInput = fields;
      create.mutate(body, { onSuccess: () => onOpenChange(false), onError: showServerErrors });
      return;
    }
    const patch: DoctorUpdate = fields;
    update.mutate({ id: doctor.id, patch }, { onSuccess: () => onOpenChange(false), onError: showServerErrors });
  });

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title={doctor ? `Edit Doctor: ${doctorTitledName(doctor)}` : 'Add Doctor'}
      description={
        doctor
          ? 'Change the doctor’s details. Changes are recorded in the audit trail.'
          : 'A referring or consulting doctor, offered on bills while active. Most referring doctors never sign in.'
      }
      busy={busy}
      form={{ id: doctor ? 'edit-doctor-form' : 'add-doctor-form', onSubmit }}
      error={formError(form)}
      submitLabel={doctor ? 'Save Changes' : 'Add Doctor'}
      busyLabel={doctor ? 'Saving...' : 'Adding...'}
    >
      <PersonNameFields
        title={form.register('title')}
        first={form.register('first_name')}
        last={form.register('last_name')}
        errors={{ title: errors.title?.message, first: errors.first_name?.message, last: errors.last_name?.message }}
      />
      <FormField
        label="Email"
        required={canSignIn}
        error={errors.email?.message}
        hint={canSignIn ? 'They sign in with this email.' : 'Optional for a doctor who does not sign in.'}
      >
        <Input type="email" autoComplete="off" {...form.register('email')} />
      </FormField>
      <PhoneAndSpecialization
        listId="doctor-specializations"
        phone={form.register('phone')}
        specialization={form.register('specialization')}
        errors={{ phone: errors.phone?.message, specialization: errors.specialization?.message }}
      />
      <FormField label="Qualification" error={errors.qualification?.message}>
        <Input placeholder="e.g. MBBS, MD" {...form.register('qualification')} />
      </FormField>
      <FormField label="Experience (years)" error={errors.experience_years?.message}>
        <Input type="number" inputMode="numeric" min={0} step={1} {...form.register('experience_years')} />
      </FormField>
      <FormField
        label="Consultation Fee (₹)"
        error={errors.consultation_fee?.message}
        hint="Added to OP bills for this doctor."
      >
        <Input type="number" inputMode="decimal" min={0} step="0.01" {...form.register('consultation_fee')} />
      </FormField>
      <FormField
        label="Registration No."
        error={errors.registration_number?.message}
        hint="State medical council registration."
      >
        <Input placeholder="e.g. KMC 45821" {...form.register('registration_number')} />
      </FormField>
      <FormField label="Status" required error={errors.status?.message}>
        <Select
          options={DOCTOR_STATUSES.map((s) => ({ value: s, label: DOCTOR_STATUS_LABELS[s] }))}
          {...form.register('status')}
        />
      </FormField>
      <div className="sm:col-span-2">
        <Checkbox
          label="May sign in"
          hint={
            doctor?.can_sign_in
              ? 'Unticking removes the password and signs the doctor out.'
              : 'Gives the doctor a password to see their patients’ reports. Leave unticked for a referring doctor.'
          }
          {...form.register('can_sign_in')}
        />
        {errors.can_sign_in?.message && <p className="mt-1 text-[13px] text-red-700">{errors.can_sign_in.message}</p>}
      </div>
      {canSignIn && (
        <>
          <NewPasswordFields
            label={needsPassword ? 'Password' : 'New Password'}
            required={needsPassword}
            hint={needsPassword ? 'At least 8 characters.' : 'Leave empty to keep the current password.'}
            password={form.register('password')}
            confirm={form.register('confirm_password')}
            errors={{ password: errors.password?.message, confirm: errors.confirm_password?.message }}
          />
        </>
      )}
    </FormDialog>
  );
}
