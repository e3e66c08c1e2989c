/**
 * How staff find a test, profile or package: by name, code, description, category or alias, with
 * the words Indian labs use for the same thing ("sugar" for glucose, "Hb", "CBC", "LFT") and both
 * spellings (haemoglobin / hemoglobin). One function, used by the server's catalogue search and by
 * the pickers that filter a list already loaded, so a word finds the same items everywhere.
 */

/** Each group: words that mean the same test or panel to lab staff (lower case). */
const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['glucose', 'sugar', 'blood sugar', 'fbs', 'ppbs', 'rbs', 'glu'],
  ['haemoglobin', 'hb', 'hgb'],
  ['hba1c', 'glycated', 'glycosylated', 'a1c'],
  ['cbc', 'complete blood count', 'haemogram', 'blood count'],
  ['lft', 'liver function', 'liver'],
  ['kft', 'rft', 'renal function', 'kidney function', 'kidney'],
  ['tft', 'thyroid profile', 'thyroid function'],
  ['lipid', 'cholesterol', 'lipid profile'],
  ['sgpt', 'alt'],
  ['sgot', 'ast'],
  ['creatinine', 'creat', 'serum creatinine'],
  ['urea', 'bun'],
  ['electrolytes', 'sodium', 'potassium', 'chloride', 'na', 'k', 'cl'],
  ['vitamin d', 'vit d', '25-oh', 'vitd'],
  ['vitamin b12', 'vit b12', 'b12', 'cobalamin'],
  ['urine routine', 'urm', 'urine r/m', 'urine re', 'urine analysis', 'urinalysis'],
  ['esr', 'sed rate', 'sedimentation'],
  ['platelet', 'plt', 'platelets'],
  ['tlc', 'wbc', 'white cell', 'leucocyte', 'total count'],
  ['pcv', 'haematocrit', 'hct'],
  ['crp', 'c-reactive'],
  ['dengue', 'ns1'],
  ['malaria', 'mp'],
  ['typhoid', 'widal'],
  ['pregnancy', 'upt', 'hcg'],
  ['blood group', 'bgrh', 'abo', 'rh typing'],
];

const GROUP_OF = new Map<string, readonly string[]>();
for (const g of SYNONYM_GROUPS) for (const w of g) GROUP_OF.set(w, g);

/** British and American spellings of the same word, both ways (haem/hem, leuc/leuk, oes/es). */
function spellings(word: string): string[] {
  const out = new Set([word]);
  out.add(word.replace(/haem/g, 'hem').replace(/anaem/g, 'anem').replace(/leuc/g, 'leuk').replace(/oes/g, 'es'));
  out.add(
    word
      .replace(/(^|[^a])hem/g, '$1haem')
      .replace(/leuk/g, 'leuc')
      .replace(/anem/g, 'anaem'),
  );
  return [...out];
}

/** The texts a query stands for: itself, its spellings, and its synonyms (with their spellings). */
export function searchAlternatives(query: string): string[] {
  const q = query.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!q) return [];
  const out = new Set<string>();
  for (const s of spellings(q)) {
    out.add(s);
    for (const w of GROUP_OF.get(s) ?? []) for (const v of spellings(w)) out.add(v);
  }
  return [...out];
}

export interface Searchable {
  name: string;
  code: string;
  description?: string | null;
  category?: string | null;
  aliases?: readonly string[] | null;
}

/**
 * A synonym of up to three letters (Hb, K, Na, MP) stands for a code: it matches a code or an alias
 * exactly, never a word inside a name, so "potassium" does not find Vitamin K.
 */
function hits(text: string, alt: string): boolean {
  return alt.length > 3 && text.includes(alt);
}

/** Whether an item answers a query (an empty query matches everything). */
export function catalogueMatches(item: Searchable, query: string, alternatives = searchAlternatives(query)): boolean {
  if (!alternatives.length) return true;
  const code = item.code.toLowerCase();
  const texts = [item.name, item.description ?? '', item.category ?? '', ...(item.aliases ?? [])].map((t) =>
    t.toLowerCase(),
  );
  const typed = query.trim().toLowerCase();
  // What was typed matches anywhere, as before (part of a name, code or description).
  if (code.includes(typed) || texts.some((t) => t.includes(typed))) return true;
  const aliases = (item.aliases ?? []).map((a) => a.toLowerCase());
  return alternatives.some((a) => code === a || aliases.includes(a) || texts.some((t) => hits(t, a)));
}
