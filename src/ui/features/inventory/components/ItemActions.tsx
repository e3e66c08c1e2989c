import { useState, type ReactNode } from 'react';
import { Layers } from 'lucide-react';
import type { ItemKind } from '@shared/inventory';
import type { InventoryItem } from '@shared/schemas/inventory';
import { ConfirmDialog, deleteMessage, useRowDialogs, type RowAction } from '@/components';
import { useDeleteItemMutation } from '../api';
import { ItemFormDialog } from './ItemFormDialog';
import { StockDialog } from './StockDialog';

export interface ItemActionsOptions {
  /** The kind a new item gets. */
  kind: ItemKind;
  /** "Item", "Reagent": the Add button, the add dialog's title and the delete dialog's. */
  noun: string;
  canManage: boolean;
  /** Said after "Are you sure you want to delete X?" (what happens to an item with history). */
  deleteNote?: string;
}

/**
 * What a list of inventory items does with a row, the same on Inventory, Reagents and Consumables:
 * Stock (moves, lots, ledger), Edit and Delete, the Add button, and the dialogs they open. Edit,
 * Delete and Add are there only for a user who manages the inventory.
 */
export function useItemActions({ kind, noun, canManage, deleteNote }: ItemActionsOptions): {
  actions: RowAction<InventoryItem>[];
  addButton: ReactNode;
  dialogs: ReactNode;
} {
  const rows = useRowDialogs<InventoryItem>();
  const [stock, setStock] = useState<InventoryItem | null>(null);
  const remove = useDeleteItemMutation();
  const name = (i: InventoryItem) => i.item_name;
  const cannotManage = () => !canManage;
  const addTitle = `Add ${noun}`;

  const dialogs = (
    <>
      <StockDialog item={stock} onOpenChange={(o) => !o && setStock(null)} canManage={canManage} />
      {canManage && (
        <>
          <ItemFormDialog {...rows.addDialog} item={null} kind={kind} addTitle={addTitle} />
          <ItemFormDialog {...rows.editDialog} item={rows.editing} kind={kind} addTitle={addTitle} />
          <ConfirmDialog
            {...rows.confirm}
            title={`Delete ${noun}`}
            message={
              rows.deleting ? [deleteMessage(rows.deleting.item_name), deleteNote].filter(Boolean).join(' ') : ''
            }
            busy={remove.isPending}
            onConfirm={() => rows.deleting && remove.mutate(rows.deleting, { onSuccess: rows.deleted })}
          />
        </>
      )}
    </>
  );
  return {
    actions: [
      { label: (i) => `Stock of ${i.item_name}`, icon: <Layers />, onClick: setStock },
      rows.editAction(name, cannotManage),
      rows.deleteAction(name, cannotManage),
    ],
    addButton: canManage ? rows.addButton(addTitle) : undefined,
    dialogs,
  };
}
