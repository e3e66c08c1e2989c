import { useState } from 'react';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { Button } from './Button';
import type { RowAction } from './DataTable';

/**
 * The open / closed state of a list's Add, Edit and Delete dialogs: `edit(row)` or `edit('new')`
 * opens the editor, `askDelete(row)` the delete confirmation. Spread `dialog` on one editor that
 * adds and edits (its row is `editing`, null for a new one), or `addDialog` and `editDialog` on two.
 * `addButton`, `editAction` and `deleteAction` are the buttons that open them ("Add Doctor", the
 * row's "Edit Dr. A. Rao" and "Delete Dr. A. Rao" icons); `hidden` hides a row action (no permission).
 */
export function useRowDialogs<T>() {
  const [edited, setEdited] = useState<T | 'new' | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const close = (o: boolean) => !o && setEdited(null);
  return {
    edit: setEdited,
    /** The row in the editor; null when adding or closed. */
    editing: edited === 'new' ? null : edited,
    dialog: { open: edited !== null, onOpenChange: close },
    addDialog: { open: edited === 'new', onOpenChange: close },
    editDialog: { open: edited !== null && edited !== 'new', onOpenChange: close },
    deleting,
    askDelete: setDeleting,
    /** For the ConfirmDialog: open while a row waits; closing forgets it. */
    confirm: { open: deleting !== null, onOpenChange: (o: boolean) => !o && setDeleting(null) },
    /** After the delete succeeded. */
    deleted: () => setDeleting(null),
    addButton: (label: string) => (
      <Button onClick={() => setEdited('new')}>
        <Plus />
        {label}
      </Button>
    ),
    editAction: (name: (row: T) => string, hidden?: () => boolean): RowAction<T> => ({
      label: (r) => `Edit ${name(r)}`,
      icon: <Pencil />,
      onClick: setEdited,
      ...(hidden ? { hidden } : {}),
    }),
    deleteAction: (name: (row: T) => string, hidden?: () => boolean): RowAction<T> => ({
      label: (r) => `Delete ${name(r)}`,
      icon: <Trash2 />,
      onClick: setDeleting,
      destructive: true,
      ...(hidden ? { hidden } : {}),
    }),
  };
}
