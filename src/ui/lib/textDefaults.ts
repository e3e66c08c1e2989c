/**
 * The text fields of an add / edit form from the row it edits: each as the row has it (a number
 * as its digits), '' for a new row or a value the row does not have (null), as the inputs show it.
 */
export function textDefaults<R extends object, K extends keyof R>(
  row: R | null | undefined,
  keys: readonly K[],
): Record<K, string> {
  return Object.fromEntries(keys.map((k) => [k, row?.[k] == null ? '' : String(row[k])])) as Record<K, string>;
}
