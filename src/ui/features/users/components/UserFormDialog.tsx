import { moneySymbol } from '@/lib/format';
import { useState } from 'react';
import { useWatch, type DefaultValues } from 'react-hook-form';
import { z } from 'zod';
import { ROLES } from '@shared/roles';
import { DEFAULT_PASSWORD_POLICY, passwordProblems } from '@shared/password-policy';
import type { PasswordPolicy } from '@shared/constants';
import { userCreateSchema, type User, type UserCreate, type UserUpdate } from '@shared/schemas/users';
import {
  FormDialog,
  FormField,
  Input,
  LabPasswordHint,
  NewPasswordFields,
  PersonNameFields,
  PhoneAndSpecialization,
  RadioCard,
  Select,
  staffPersonBody,
  staffPersonDefaults,
} from '@/components';
import { InvitationLinkDialog } from '@/components/InvitationLinkDialog';
import type { IssuedInvitation } from '@shared/schemas/tenants';
import { applyServerErrors, fieldNamed, formError } from '@/lib/forms';
import { useDialogForm } from '@/lib/dialogForm';
import { fullName, useCurrentUser } from '@/lib/session';
import { useLab } from '@/lib/lab';
import { useCentreChoices } from '@/lib/centres';
import { useCreateUserMutation, useInviteUserMutation, useUpdateUserMutation } from '../api';
import { assignableRoles, hasConsultationFee, roleLabel } from '@/lib/roles';
import { schemaFields } from '@/lib/schemaFields';

type Mode = 'create' | 'edit';

/**
 * One schema for both dialogs (the server's fields, the same zod rules), so one form type serves
 * add and edit. Passwords are checked only when creating with "Set a password now": the edit
 * dialog has no password fields (Reset password is its own dialog), and an invited user sets
 * their own through the link.
 */
/** What is wrong with a new password under the lab's policy, or null. */
function passwordFault(
  policy: PasswordPolicy,
  v: { password: string; email?: string; first_name?: string; last_name?: string },
): string | null {
  if (v.password.length > 200) return 'Password must be at most 200 characters';
  const who = { email: v.email, name: `${v.first_name ?? ''} ${v.last_name ?? ''}`.trim() };
  const problems = passwordProblems(policy, v.password, who);
  return problems.length ? problems.join('; ') : null;
}

function formSchema(mode: Mode, policy: PasswordPolicy) {
  // Check the password rules even while other fields still have errors, so every problem shows at once.
  const when = (payload: { value: unknown }) => {
    const v = payload.value as { password?: unknown; confirm_password?: unknown; how?: unknown };
    return typeof v.password === 'string' && typeof v.confirm_password === 'string';
  };
  const setsPassword = (v: { how: string }) => mode === 'create' && v.how === 'password';
  return (
    userCreateSchema
      .omit({ password: true })
      .extend({
        role: z.enum(ROLES, { error: 'Select a role' }),
        how: z.enum(['password', 'invite']),
        password: z.string(),
        confirm_password: z.string(),
      })
      // The lab's policy, as the server applies it when it saves: every broken rule named.
      .refine((v) => !setsPassword(v) || passwordFault(policy, v) === null, {
        path: ['password'],
        error: (iss) => passwordFault(policy, iss.input as Parameters<typeof passwordFault>[1]) ?? undefined,
        when,
      })
      // A centre's login sees only its centre's rows, so it cannot be saved without one.
      .refine((v) => v.role !== 'centre' || Boolean(v.centre_id), {
        path: ['centre_id'],
        message: 'Choose the centre this login belongs to',
        when: () => true,
      })
      .refine((v) => !setsPassword(v) || v.confirm_password === v.password, {
        path: ['confirm_password'],
        message: 'Passwords do not match',
        when,
      })
  );
}
type Schema = ReturnType<typeof formSchema>;
type FormIn = z.input<Schema>;

function defaults(user: User | null): DefaultValues<FormIn> {
  return {
    ...staffPersonDefaults(user),
    role: user?.role,
    department: user?.department ?? '',
    consultation_fee: user ? String(user.consultation_fee) : '0',
    centre_id: user?.centre_id ? String(user.centre_id) : '',
    how: 'password',
    password: '',
    confirm_password: '',
  };
}

export interface UserFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** null: Add User; a user: Edit that user. */
  user: User | null;
}

/** Add User and Edit User (spec 2.17). Both save: POST /api/users, PUT /api/users/:id. */
export function UserFormDialog({ open, onOpenChange, user }: UserFormDialogProps) {
  const mode: Mode = user ? 'edit' : 'create';
  const me = useCurrentUser();
  const create = useCreateUserMutation();
  const invite = useInviteUserMutation();
  const update = useUpdateUserMutation();
  const busy = create.isPending || update.isPending || invite.isPending;
  const [invited, setInvited] = useState<IssuedInvitation | null>(null);
  /** Closing forgets the link shown: it is shown once. */
  const close = () => {
    setInvited(null);
    onOpenChange(false);
  };

  // Each opening starts from the user being edited (or an empty form).
  const policy = useLab().data?.passwordPolicy ?? DEFAULT_PASSWORD_POLICY;
  const form = useDialogForm(formSchema(mode, policy), open, user, defaults);
  const { errors } = form.formState;

  const role = useWatch({ control: form.control, name: 'role' }) ?? '';
  const how = useWatch({ control: form.control, name: 'how' }) ?? 'password';
  const [password, email, first, last] = useWatch({
    control: form.control,
    name: ['password', 'email', 'first_name', 'last_name'],
  });
  const isSelf = user !== null && user.id === me.id;
  const roleLockedReason = !user
    ? null
    : isSelf
      ? 'You cannot change your own role.'
      : user.role === 'superadmin'
        ? 'The superadmin role cannot be changed.'
        : null;
  const offered = assignableRoles(me.role);
  // Editing someone whose role is already theirs to keep: keep it in the list so the select shows it.
  const roleOptions = user && !offered.includes(user.role) ? [user.role, ...offered] : offered;
  const centres = useCentreChoices(open && role === 'centre');

  const showServerErrors = (err: unknown) =>
    applyServerErrors(err, form.setError, fieldNamed(schemaFields(userCreateSchema)), { EMAIL_TAKEN: 'email' });

  const onSubmit = form.handleSubmit((v) => {
    const fields = {
      ...staffPersonBody(v),
      email: v.email,
      role: v.role,
      department: v.department ?? null,
      ...(hasConsultationFee(v.role) && v.consultation_fee !== undefined
        ? { consultation_fee: v.consultation_fee }
        : {}),
      // Only a centre's login is bound to a centre; any other role is saved unbound.
      centre_id: v.role === 'centre' ? (v.centre_id ?? null) : null,
    };
    if (!user && v.how === 'invite') {
      invite.mutate(fields, { onSuccess: (r) => setInvited(r.invitation), onError: showServerErrors });
      return;
    }
    if (!user) {
      const body: UserCreate = { ...fields, password: v.password };
      create.mutate(body, { onSuccess: () => onOpenChange(false), onError: showServerErrors });
      return;
    }
    const patch: UserUpdate = { ...fields };
    if (roleLockedReason) delete patch.role;
    update.mutate({ id: user.id, patch }, { onSuccess: () => onOpenChange(false), onError: showServerErrors });
  });

  if (invited) {
    return (
      <InvitationLinkDialog
        invitation={open ? invited : null}
        title={`User invited: ${invited.email}`}
        description="The account has no password yet: its owner sets one with this link, then signs in."
        onClose={close}
      />
    );
  }
  const invites = mode === 'create' && how === 'invite';
  const choice = (value: 'password' | 'invite', label: string, note: string) => (
    <RadioCard value={value} selected={how === value} label={label} note={note} {...form.register('how')} />
  );
  return (
    <FormDialog
      open={open}
      onOpenChange={(o) => !o && close()}
      size="lg"
      title={user ? `Edit User: ${fullName(user)}` : 'Add User'}
      description={
        user
          ? 'Change the account details. Changes are recorded in the audit trail.'
          : 'Create a staff account. They sign in with this email and a password: set one now, or send them a link to set their own.'
      }
      busy={busy}
      onCancel={close}
      form={{ id: mode === 'create' ? 'add-user-form' : 'edit-user-form', onSubmit }}
      error={formError(form)}
      submitLabel={user ? 'Save Changes' : invites ? 'Invite User' : 'Create User'}
      busyLabel={user ? 'Saving...' : invites ? 'Inviting...' : 'Creating...'}
    >
      <PersonNameFields
        title={form.register('title')}
        first={form.register('first_name')}
        last={form.register('last_name')}
        errors={{ title: errors.title?.message, first: errors.first_name?.message, last: errors.last_name?.message }}
      />
      <FormField label="Email" required error={errors.email?.message}>
        <Input type="email" autoComplete="off" {...form.register('email')} />
      </FormField>
      {roleLockedReason && user ? (
        <FormField label="Role" hint={roleLockedReason}>
          <Select
            disabled
            value={user.role}
            options={[{ value: user.role, label: roleLabel(user.role) }]}
            onChange={() => undefined}
          />
        </FormField>
      ) : (
        <FormField label="Role" required error={errors.role?.message} hint="Only roles you may assign are listed.">
          <Select
            placeholder="Select role"
            options={roleOptions.map((r) => ({ value: r, label: roleLabel(r) }))}
            {...form.register('role')}
          />
        </FormField>
      )}
      {role === 'centre' && (
        <FormField
          label="Centre"
          required
          error={errors.centre_id?.message ?? (centres.isError ? 'The centres could not be loaded' : undefined)}
          hint="This login sees only this centre’s patients, bills, reports and statement."
        >
          <Select
            placeholder={centres.isPending ? 'Loading centres…' : 'Select centre'}
            options={centres.data ?? []}
            {...form.register('centre_id')}
          />
        </FormField>
      )}
      <FormField label="Department" error={errors.department?.message}>
        <Input placeholder="e.g. Pathology" {...form.register('department')} />
      </FormField>
      <PhoneAndSpecialization
        listId="user-specializations"
        phone={form.register('phone')}
        specialization={form.register('specialization')}
        errors={{ phone: errors.phone?.message, specialization: errors.specialization?.message }}
      />
      {hasConsultationFee(role) && (
        <FormField
          label={`Consultation Fee (${moneySymbol()})`}
          error={errors.consultation_fee?.message}
          hint="Added to OP bills for this doctor."
        >
          <Input type="number" inputMode="decimal" min={0} step="0.01" {...form.register('consultation_fee')} />
        </FormField>
      )}
      {mode === 'create' && (
        <fieldset className="grid gap-2 sm:col-span-2">
          <legend className="mb-1 text-[13px] font-medium text-slate-800">Sign-in</legend>
          {choice('password', 'Set a password now', 'You tell them the password; they sign in at once.')}
          {choice(
            'invite',
            'Send an invitation link',
            'You copy a one-time link (valid 72 hours) and send it; they choose their own password.',
          )}
        </fieldset>
      )}
      {mode === 'create' && !invites && (
        <>
          <NewPasswordFields
            required
            hint={
              <LabPasswordHint
                password={String(password ?? '')}
                who={{ email: String(email ?? ''), name: `${String(first ?? '')} ${String(last ?? '')}` }}
              />
            }
            className="sm:col-start-1"
            password={form.register('password')}
            confirm={form.register('confirm_password')}
            errors={{ password: errors.password?.message, confirm: errors.confirm_password?.message }}
          />
        </>
      )}
    </FormDialog>
  );
}
