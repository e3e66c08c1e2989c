import { numericValue, parseRange } from '../../shared/flags.js';
import type { StructuredOut } from '../../shared/schemas/results.js';
import { GROWTH_WORDS, INTERPRETATION_WORDS, referenceText, templateById } from '../../shared/templates/index.js';
import type { OutLine } from './report.js';

/**
 * A structured result goes out as its parameters, one observation each (HL7 OBX, FHIR Observation),
 * coded `<test code>.<PARAMETER>` under the lab's own code system: a receiver files "URM.PROTEIN 2+"
 * as it would any result. A culture goes out as its specimen, growth, each organism (with its
 * colony count) and each antibiotic's interpretation in words with the MIC and zone as a note.
 * Parameters carry no LOINC of their own here; the test's LOINC names the whole panel only.
 */
export function structuredLines(base: OutLine, s: StructuredOut): OutLine[] {
  const part = (key: string, name: string, value: string, extra: Partial<OutLine> = {}): OutLine => ({
    ...base,
    code: `${base.code}.${key.toUpperCase()}`,
    name: `${base.name}: ${name}`,
    loinc: null,
    value,
    numeric: numericValue(value),
    unit: null,
    range_text: null,
    range: null,
    flag: null,
    critical: false,
    notes: null,
    part: key.toLowerCase(),
    ...extra,
  });
  const t = templateById(s.template);
  if (s.culture) {
    const c = s.culture;
    const growth = c.growth === 'no_growth' ? `No growth after ${c.incubation_hours ?? '?'} h` : GROWTH_WORDS[c.growth];
    const lines = [
      part('SPECIMEN', 'Specimen', c.specimen, { numeric: null }),
      part('CULTURE', 'Culture', growth, {
        numeric: null,
        flag: c.growth === 'no_growth' ? 'normal' : 'abnormal',
        notes: c.comment ?? null,
      }),
    ];
    c.organisms.forEach((o, i) => {
      const org = `ORG${i + 1}`;
      lines.push(part(org, `Organism ${i + 1}`, o.name, { numeric: null, flag: 'abnormal' }));
      if (o.colony_count != null)
        lines.push(part(`${org}.CFU`, `Organism ${i + 1} colony count`, String(o.colony_count), { unit: 'CFU/mL' }));
      o.antibiotics.forEach((a, k) => {
        const measured = [
          a.mic != null ? `MIC ${a.mic} mg/L` : null,
          a.zone != null ? `zone ${a.zone} mm` : null,
        ].filter(Boolean);
        lines.push(
          part(`${org}.AB${k + 1}`, `Organism ${i + 1} ${a.name}`, INTERPRETATION_WORDS[a.interpretation], {
            numeric: null,
            notes: measured.length ? measured.join('; ') : null,
          }),
        );
      });
    });
    return lines;
  }
  if (!t || t.kind !== 'panel' || !s.values) return [base];
  return t.params
    .filter((p) => s.values![p.key] !== undefined)
    .map((p) => {
      const ref = referenceText(p);
      const range = p.kind === 'number' ? ref.replace(' – ', '-').replace('≥ ', '>=').replace('≤ ', '<=') : null;
      return part(p.key, p.label, s.values![p.key]!, {
        // A microscopy range ("8-10") is text, not a number.
        numeric: p.kind === 'number' ? numericValue(s.values![p.key]!) : null,
        unit: p.kind === 'text' ? null : (p.unit ?? null),
        range_text: ref || null,
        range: range ? parseRange(range) : null,
        flag: s.flags?.[p.key] ?? null,
      });
    });
}
