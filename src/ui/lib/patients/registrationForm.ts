import { useForm, type FieldErrors, type UseFormProps } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { shownErrors } from '@/lib/forms';
import { notify } from '@/lib/notify';
import { REGISTRATION_DEFAULTS, registrationSchema, type RegistrationInput, type RegistrationValues } from './schemas';

/**
 * The patient registration form of New Patient Registration and Register Patient with Bill: the
 * registration schema, its defaults, each field checked when it loses focus.
 */
export function useRegistrationForm(options: Pick<UseFormProps<RegistrationInput>, 'shouldFocusError'> = {}) {
  return useForm<RegistrationInput, unknown, RegistrationValues>({
    resolver: zodResolver(registrationSchema),
    defaultValues: REGISTRATION_DEFAULTS,
    mode: 'onBlur',
    ...options,
  });
}

/** Spec 8: "Please agree to the terms and conditions" when only the box is missing, else the general text. */
export function notifyInvalidRegistration(errs: FieldErrors<RegistrationInput>): void {
  const keys = shownErrors(errs);
  if (keys.length === 1 && keys[0] === 'agreeToTerms') notify.error('Please agree to the terms and conditions');
  else
    notify.error(
      'Please fill in all required fields',
      `${keys.length} field${keys.length === 1 ? ' needs' : 's need'} attention`,
    );
}
