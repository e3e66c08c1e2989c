import type { FormEvent, ReactNode } from 'react';
import { Button, type ButtonVariant } from './Button';
import { Dialog, type DialogProps } from './Dialog';

export interface FormDialogProps extends Omit<DialogProps, 'footer'> {
  /** The save is running: the dialog stays open (Escape, overlay and Cancel do nothing) and the button spins. */
  busy: boolean;
  /** "Add Receiver", "Save Changes"... */
  submitLabel: ReactNode;
  /** Shown on the spinning button; "Saving..." unless told. */
  busyLabel?: string;
  /** A click on the submit button (fields kept with useFieldForm). */
  onSubmit?: () => void;
  /**
   * Or the fields go in a <form> (react-hook-form's handleSubmit), laid out in two columns from
   * 640 px; the submit button submits it, and so does Enter in a field.
   */
  form?: { id: string; onSubmit: (e: FormEvent<HTMLFormElement>) => unknown; columns?: 1 | 2 };
  submitVariant?: ButtonVariant;
  /** The submit button cannot be pressed yet (nothing chosen to save, a hold the dialog explains). */
  submitDisabled?: boolean;
  /** Cancel's action; closing (onOpenChange(false)) unless told. */
  onCancel?: () => void;
  /** "Cancel" unless told ("Keep Invoice" where Cancel is the action itself). */
  cancelLabel?: string;
  /**
   * A message that belongs to no field (a 409, a network failure), above the fields: `errors.form`
   * of useFieldForm, or `formError(form)` of a react-hook-form.
   */
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
  form,
  submitVariant,
  submitDisabled = false,
  onCancel,
  cancelLabel = 'Cancel',
  error,
  onOpenChange,
  children,
  ...dialog
}: FormDialogProps) {
  return (
    <Dialog
      {...dialog}
      // A confirmation has no body: its question is the description.
      {...(error || children
        ? {
            children: (
              <>
                {error && <p className="mb-4 text-sm text-red-700">{error}</p>}
                {form ? (
                  <form
                    id={form.id}
                    noValidate
                    onSubmit={(e) => void form.onSubmit(e)}
                    className={form.columns === 1 ? 'grid gap-4' : 'grid items-start gap-4 sm:grid-cols-2'}
                  >
                    {children}
                  </form>
                ) : (
                  children
                )}
              </>
            ),
          }
        : {})}
      onOpenChange={(o) => !busy && onOpenChange(o)}
      footer={
        <>
          <Button variant="outline" onClick={onCancel ?? (() => onOpenChange(false))} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button
            type={form ? 'submit' : 'button'}
            form={form?.id}
            variant={submitVariant}
            onClick={onSubmit}
            loading={busy}
            loadingText={busyLabel}
            disabled={submitDisabled}
          >
            {submitLabel}
          </Button>
        </>
      }
    />
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title?: string;
  /** Usually "Are you sure you want to delete <name>?" — name the thing. */
  message: ReactNode;
  confirmLabel?: string;
  busyLabel?: string;
  busy?: boolean;
  destructive?: boolean;
  onConfirm: () => void;
}

/** Confirms a destructive action. The caller closes it when the mutation settles. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title = 'Please confirm',
  message,
  confirmLabel = 'Delete',
  busyLabel = 'Deleting...',
  busy = false,
  destructive = true,
  onConfirm,
}: ConfirmDialogProps) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={message}
      size="sm"
      busy={busy}
      onSubmit={onConfirm}
      submitLabel={confirmLabel}
      busyLabel={busyLabel}
      submitVariant={destructive ? 'destructive' : 'primary'}
    />
  );
}

/** "Are you sure you want to delete Glucose reagent kit?" */
export function deleteMessage(name: string): string {
  return `Are you sure you want to delete ${name}?`;
}
