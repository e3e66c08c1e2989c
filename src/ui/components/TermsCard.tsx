import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Card, CardBody, CardHeader } from './Card';
import { Checkbox } from './Checkbox';

export interface TermsCardProps {
  /** The form's agreeToTerms checkbox (form.register('agreeToTerms')). */
  field: UseFormRegisterReturn;
  error?: string;
  className?: string;
  /** The form's buttons, under the agreement. */
  children: ReactNode;
}

/**
 * The closing card of a patient registration (on its own, or with a bill): the patient's agreement
 * to the terms, which both forms require in the same words, then the form's buttons.
 */
export function TermsCard({ field, error, className, children }: TermsCardProps) {
  return (
    <Card className={className}>
      <CardHeader title="Terms and Conditions" />
      <CardBody className="grid gap-4">
        <div>
          <Checkbox
            label="I confirm these details are correct and the patient agrees to the terms and conditions, including the storage of their health information by this laboratory."
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'terms-error' : undefined}
            {...field}
          />
          {error && (
            <p id="terms-error" className="mt-1 ml-6 text-[13px] text-red-700">
              {error}
            </p>
          )}
        </div>
        <div className="flex flex-wrap justify-end gap-2">{children}</div>
      </CardBody>
    </Card>
  );
}
