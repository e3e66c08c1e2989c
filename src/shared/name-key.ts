/**
 * Whether two names may be one person's, whatever the case, spacing, accents or script (Latin or
 * Devanagari). Each word becomes a consonant skeleton: accents and vowels dropped, the aspirated
 * and doubled consonants folded (bh -> b, sh -> s, ph -> f, w -> v, z -> j), Devanagari consonants
 * read as the Latin letter a desk would write. Vowels go because the two scripts (and spellers) part
 * most there: "Sunita", "Suneeta" and "सुनीता" are all s-n-t (a word's first vowel stays, in
 * three classes, so Anita is a-n-t). A cheap key, not a transliterator: it
 * finds candidates for a person at the desk to confirm, never merges anything by itself.
 */

const DEVANAGARI: Record<string, string> = {
  क: 'k',
  ख: 'k',
  ग: 'g',
  घ: 'g',
  ङ: 'n',
  च: 'c',
  छ: 'c',
  ज: 'j',
  झ: 'j',
  ञ: 'n',
  ट: 't',
  ठ: 't',
  ड: 'd',
  ढ: 'd',
  ण: 'n',
  त: 't',
  थ: 't',
  द: 'd',
  ध: 'd',
  न: 'n',
  प: 'p',
  फ: 'f',
  ब: 'b',
  भ: 'b',
  म: 'm',
  य: 'y',
  र: 'r',
  ल: 'l',
  ळ: 'l',
  व: 'v',
  श: 's',
  ष: 's',
  स: 's',
  ह: 'h',
  // anusvara and chandrabindu are a nasal before the next consonant
  'ं': 'n',
  'ँ': 'n',
};

/** A word's first vowel stays, in three classes (Anita is not Sunita, Eshwar is Ishwar). */
const FIRST_VOWEL: Record<string, string> = {
  a: 'a',
  अ: 'a',
  आ: 'a',
  e: 'i',
  i: 'i',
  इ: 'i',
  ई: 'i',
  ए: 'i',
  ऐ: 'a',
  o: 'u',
  u: 'u',
  उ: 'u',
  ऊ: 'u',
  ओ: 'u',
  औ: 'a',
};

/** A Latin word's consonants as the key spells them. */
function latinSkeleton(word: string): string {
  let w = word
    .replace(/ph/g, 'f')
    .replace(/([kgcjtdpbs])h/g, '$1')
    .replace(/w/g, 'v')
    .replace(/z/g, 'j')
    .replace(/q/g, 'k')
    .replace(/x/g, 'ks');
  // A "c" not from "ch" is mostly a k (Vincent, Francis); "ch" became "c" above and stays.
  w = word.includes('ch') ? w : w.replace(/c/g, 'k');
  return w.replace(/[aeiou]/g, '');
}

function wordSkeleton(word: string): string {
  let out = FIRST_VOWEL[word[0]!] ?? '';
  let latin = '';
  for (const ch of word) {
    if (/[a-z]/.test(ch)) latin += ch;
    else {
      if (latin) out += latinSkeleton(latin);
      latin = '';
      out += DEVANAGARI[ch] ?? '';
    }
  }
  if (latin) out += latinSkeleton(latin);
  // Doubled letters (Anna, Lalitha/ललिता's ल्ल) count once; a lone h between vowels is kept.
  return out.replace(/(.)\1+/g, '$1');
}

/** The words of a name, lower case, accents removed (é -> e), Devanagari marks kept. */
export function nameWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{M}]+/u)
    .filter(Boolean);
}

/** The skeleton of each word of a name (words that leave nothing, such as "A", are dropped). */
export function nameKey(name: string): string[] {
  return nameWords(name)
    .map(wordSkeleton)
    .filter((k) => k.length > 0);
}

/**
 * Similar names: the same skeleton run together (Ram Kumar / Ramkumar / राम कुमार), or the same
 * first word with every word of the shorter name in the longer one (Ravi / Ravi Shankar).
 */
export function similarNames(a: string, b: string): boolean {
  const ka = nameKey(a);
  const kb = nameKey(b);
  if (!ka.length || !kb.length) return false;
  const ja = ka.join('');
  const jb = kb.join('');
  if (ja === jb) return true;
  const [short, long] = ka.length <= kb.length ? [ka, kb] : [kb, ka];
  return short[0] === long[0] && short.every((w) => long.includes(w));
}
