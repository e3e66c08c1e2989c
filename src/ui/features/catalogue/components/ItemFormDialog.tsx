import type { FormEvent, ReactNode } from 'react';
import { Dialog } from '@/components';
import { FormFooter } from './CommonFields';

export interface ItemFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Saving: the dialog stays open and its buttons wait. */
  busy: boolean;
  /** Editing an item (Save Changes) rather than adding one (Save). */
  editing: boolean;
  /** The form's id, for the footer's submit button. */
  formId: string;
  title: string;
  description: ReactNode;
  size: 'lg' | 'xl';
  onSubmit: (e: FormEvent<HTMLFormElement>) => Promise<void>;
  children: ReactNode;
}

/** The shell of the Add / Edit dialogs of tests, profiles and packages: dialog, two-column form, Cancel / Save. */
export function ItemFormDialog(props: ItemFormDialogProps) {
  const { open, onOpenChange, busy, editing, formId } = props;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !busy && onOpenChange(o)}
      size={props.size}
      title={props.title}
      description={props.description}
      footer={<FormFooter formId={formId} editing={editing} busy={busy} onCancel={() => onOpenChange(false)} />}
    >
      <form
        id={formId}
        noValidate
        onSubmit={(e) => void props.onSubmit(e)}
        className="grid items-start gap-4 sm:grid-cols-2"
      >
        {props.children}
      </form>
    </Dialog>
  );
}
