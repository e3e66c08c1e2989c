/** What an add / edit dialog's save hands a mutation: close on success, the refusal to the form. */
export interface SaveCallbacks {
  onSuccess: () => void;
  onError: (err: unknown) => void;
}

/** The part of a TanStack mutation the save uses (a method, so the library's wider callbacks fit). */
export interface SaveMutation<V> {
  mutate(variables: V, callbacks: SaveCallbacks): void;
  isPending: boolean;
}

/**
 * The save of a dialog that adds a row or edits one with a create and an update mutation: a new
 * row is created from the body, the edited one updated as `{ id, body }`; `busy` while either runs.
 */
export function addOrEditSave<B, R extends { id: number }>(
  row: R | null,
  create: SaveMutation<B>,
  update: SaveMutation<{ id: number; body: B }>,
) {
  return {
    busy: create.isPending || update.isPending,
    save: (body: B, callbacks: SaveCallbacks) =>
      row ? update.mutate({ id: row.id, body }, callbacks) : create.mutate(body, callbacks),
  };
}
