import type { ReactNode } from 'react';
import { Button, type ButtonVariant } from './Button';
import { Dialog, type DialogProps } from './Dialog';

export interface FormDialogProps extends Omit<DialogProps, 'footer'> {
  /** The save is running: the dialog stays open (Escape, overlay and Cancel do nothing) and the button spins. */
  busy: boolean;
  /** "Add Receiver", "Save Changes"... */
  submitLabel: ReactNode;
  /** Shown on the spinning button; "Saving..." unless told. */
  busyLabel?: string;
  /** A click on the submit button; or give `formId` to submit a <form> inside (react-hook-form). */
  onSubmit?: () => void;
  formId?: string;
  submitVariant?: ButtonVariant;
  /** Cancel's action; closing (onOpenChange(false)) unless told. */
  onCancel?: () => void;
  /** A message that belongs to no field (a 409, a network failure), above the fields. */
  error?: string | undefined;
}

/**
 * An add / edit dialog: the fields, then Cancel and the submit button, which shows progress while
 * the save runs and keeps the dialog from closing under it. The field state and the server's 400s
 * under the fields come from `useFieldForm` (@/lib/forms) or react-hook-form.
 */
export function FormDialog({
  busy,
  submitLabel,
  busyLabel = 'Saving...',
  onSubmit,
  formId,
  submitVariant,
  onCancel,
  error,
  onOpenChange,
  children,
  ...dialog
}: FormDialogProps) {
  return (
    <Dialog
      {...dialog}
      onOpenChange={(o) => !busy && onOpenChange(o)}
      footer={
        <>
          <Button variant="outline" onClick={onCancel ?? (() => onOpenChange(false))} disabled={busy}>
            Cancel
          </Button>
          <Button
            type={formId ? 'submit' : 'button'}
            form={formId}
            variant={submitVariant}
            onClick={onSubmit}
            loading={busy}
            loadingText={busyLabel}
          >
            {submitLabel}
          </Button>
        </>
      }
    >
      {error && <p className="mb-4 text-sm text-red-700">{error}</p>}
      {children}
    </Dialog>
  );
}
