/**
 * Titles of staff and doctors, a field of their own and shown before the name ("Dr. Meena
 * Kulkarni"), never part of the first name. Patients have their own list (PATIENT_TITLES: Baby and
 * Master too); the same words read the same way.
 */
export const PERSON_TITLES = ['Dr', 'Prof', 'Mr', 'Mrs', 'Ms', 'Miss'] as const;
export type PersonTitle = (typeof PERSON_TITLES)[number];

/** Every title lims recognises at the start of a name, as stored (no full stop). */
const KNOWN = ['Dr', 'Prof', 'Mr', 'Mrs', 'Ms', 'Miss', 'Master', 'Baby'] as const;
type KnownTitle = (typeof KNOWN)[number];

/** How a title is written before a name: the abbreviations with their full stop. */
const WRITTEN: Record<KnownTitle, string> = {
  Dr: 'Dr.',
  Prof: 'Prof.',
  Mr: 'Mr.',
  Mrs: 'Mrs.',
  Ms: 'Ms.',
  Miss: 'Miss',
  Master: 'Master',
  Baby: 'Baby',
};

/** "dr.", "Dr", "DR." as the stored title "Dr"; null for a word that is no title. */
export function titleOf(word: string): KnownTitle | null {
  const bare = word.trim().replace(/\.$/, '').toLowerCase();
  return KNOWN.find((t) => t.toLowerCase() === bare) ?? null;
}

/**
 * A name typed with its title in front ("Dr. Meena Kulkarni", "Prof Rao") as the title and the
 * rest. A title alone is a name ("Baby" may be a name until one is given), so a title is taken only
 * when a word follows it.
 */
export function splitTitle(text: string): { title: KnownTitle | null; rest: string } {
  const m = /^\s*(\S+)\s+(\S[^]*)$/.exec(text);
  const title = m ? titleOf(m[1]!) : null;
  return title ? { title, rest: m![2]!.trim() } : { title: null, rest: text.trim() };
}

/** The name as it is shown: the title (written with its full stop), first name, last name. */
export function titledName(p: { title?: string | null; first_name: string; last_name: string }): string {
  const title = p.title ? (WRITTEN[p.title as KnownTitle] ?? p.title) : '';
  return [title, p.first_name, p.last_name]
    .map((s) => s.trim())
    .filter(Boolean)
    .join(' ');
}

/**
 * A title typed into the first name ("Dr. Meena") moves to the title, when no title was given
 * apart: what every way in (the API, lims user add, an import, the setup wizard) stores.
 */
export function moveTitleOutOfFirstName<T extends { title?: string | null; first_name?: string }>(input: T): T {
  if (input.first_name === undefined || input.title) return input;
  const { title, rest } = splitTitle(input.first_name);
  if (!title || !(PERSON_TITLES as readonly string[]).includes(title)) return input;
  return { ...input, title, first_name: rest };
}

/** A doctor's name as shown: their own title, Dr when none was given. */
export function doctorTitledName(d: { title?: string | null; first_name: string; last_name: string }): string {
  return titledName({ ...d, title: d.title ?? 'Dr' });
}
