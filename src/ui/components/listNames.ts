/**
 * What a list is called: its table's caption, the word the pager counts in ("of 52 invoices") and
 * the title of its load error. Most lists say all three with one noun ("Invoices"); the others name
 * each.
 */
export type ListNames =
  | { noun: string; caption?: undefined; itemLabel?: undefined; errorTitle?: undefined }
  | { noun?: undefined; caption: string; itemLabel: string; errorTitle?: string };

/** "Invoices" -> caption "Invoices", itemLabel "invoices", errorTitle "Error Loading Invoices". */
export function listNames(names: ListNames): { caption: string; itemLabel: string; errorTitle?: string } {
  if (names.noun === undefined) return names;
  const { noun } = names;
  return { caption: noun, itemLabel: noun.toLowerCase(), errorTitle: `Error Loading ${noun}` };
}
