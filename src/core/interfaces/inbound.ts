import {
  components,
  parseAstmMessage,
  splitMessages,
  splitRecords,
  testCode,
  type AstmMessage,
  type AstmRecord,
} from './astm/records.js';
import { parseHl7, type Hl7Message, type Hl7Segment } from './hl7/message.js';
import {
  INSTRUMENT_DEFAULTS,
  parseLocation,
  type IgnoreRule,
  type ResolvedProfile,
} from '../../shared/schemas/instrument-profiles.js';

/**
 * What a machine's message says, whatever the protocol: results (a specimen ID, the machine's test
 * code, value, unit, flag) and queries (the specimen IDs whose orders it asks for). Where each is
 * read from is the connection's instrument profile (src/shared/schemas/instrument-profiles.ts).
 */
export interface InboundResult {
  specimenId: string;
  /** The location the specimen ID was read from (O-3, PID-2), '' when none held one. */
  specimenFrom: string;
  code: string;
  /** The value exactly as sent (outer spaces aside): `14.0`, `< 1.20`, `NOT DETECTED`. */
  value: string;
  unit: string;
  flag: string;
  referenceRange: string;
  comments: string[];
}

/** A record that is not a result: no value, could not be done, or ignored by the profile. */
export interface InboundSkipped {
  specimenId: string;
  code: string;
  value: string;
  kind: 'no_value' | 'not_done' | 'ignored';
  detail: string;
}

/** A machine asking for the orders of a specimen (ASTM Q record, HL7 QRD). */
export interface InboundQuery {
  specimenId: string;
  /** ASTM Q-3's components as sent, echoed in the answer ([] for HL7). */
  range: string[];
}

export interface Inbound {
  results: InboundResult[];
  queries: InboundQuery[];
  skipped: InboundSkipped[];
}

/** A location's text: the component asked for, else the field's first non-empty component. */
function pick(parts: string[], component: number): string {
  if (component > 0) return (parts[component - 1] ?? '').trim();
  return parts.map((p) => p.trim()).find((p) => p !== '') ?? '';
}

/** The code from the code field's components, as the profile says. */
function codeFrom(parts: string[], p: ResolvedProfile, usual: (parts: string[]) => string): string {
  if (!p.code_components.length) return usual(parts);
  const chosen = p.code_components.map((c) => (parts[c - 1] ?? '').trim()).filter((c) => c !== '');
  return p.code_pick === 'join' ? chosen.join('^') : (chosen[0] ?? '');
}

function ruleHolds(rule: IgnoreRule, text: string): boolean {
  if (rule.when === 'empty') return text === '';
  if (rule.when === 'present') return text !== '';
  return text.toUpperCase() === (rule.value ?? '').toUpperCase();
}

function describeRule(rule: IgnoreRule): string {
  return rule.when === 'equals' ? `${rule.at} is ${rule.value}` : `${rule.at} is ${rule.when}`;
}

/** The first location that holds a specimen ID, and which it was. */
function firstSpecimen(locations: string[], read: (loc: string) => string): { id: string; from: string } {
  for (const loc of locations) {
    const id = read(loc);
    if (id) return { id, from: loc };
  }
  return { id: '', from: '' };
}

/**
 * ASTM, read as the profile says. The standard profile: the specimen is O-3, else O-4 (Sysmex sends
 * O-3 empty and rack^position^sample number in O-4); the code is R-3's first non-empty component
 * after the three universal ones; the value R-4's first non-empty component (GeneXpert sends a Ct as
 * `^24.7`). An R record without a value (a Sysmex flag such as "Anemia") or with R-9 X (the test
 * could not be done) is not a result.
 */
export function inboundFromAstm(msg: AstmMessage, profile: ResolvedProfile = INSTRUMENT_DEFAULTS.astm): Inbound {
  const d = msg.delimiters;
  const results: InboundResult[] = [];
  const skipped: InboundSkipped[] = [];
  for (const p of msg.patients) {
    for (const o of p.orders) {
      for (const r of o.results) {
        const records: Record<string, AstmRecord | null> = { H: msg.header, P: p.record, O: o.record, R: r.record };
        const read = (loc: string) => {
          const { seg, field, component } = parseLocation(loc);
          const rec = records[seg];
          return rec ? pick(components(rec.fields[field - 1], d), component) : '';
        };
        const codeField = parseLocation(profile.code);
        const codeRec = records[codeField.seg];
        const code = codeRec ? codeFrom(components(codeRec.fields[codeField.field - 1], d), profile, testCode) : '';
        const specimen = firstSpecimen(profile.specimen, read);
        const value = read(profile.value);
        const rule = profile.ignore.find((x) => ruleHolds(x, read(x.at)));
        const skip = (kind: InboundSkipped['kind'], detail: string) =>
          skipped.push({ specimenId: specimen.id, code, value, kind, detail });
        if (rule) skip('ignored', `Ignored by the profile: ${describeRule(rule)}`);
        else if (value === '') skip('no_value', 'No value sent');
        else if (r.status.toUpperCase() === 'X')
          skip('not_done', 'The machine says the test could not be done (R-9 X)');
        else
          results.push({
            specimenId: specimen.id,
            specimenFrom: specimen.from,
            code,
            value,
            unit: read(profile.unit),
            flag: read(profile.flag),
            referenceRange: r.referenceRange,
            comments: r.comments,
          });
      }
    }
  }
  return {
    results,
    skipped,
    queries: msg.queries.flatMap((q) => q.specimenIds.map((specimenId) => ({ specimenId, range: q.range }))),
  };
}

/** The complete ASTM messages (H through L) in a transmission's text, and the incomplete ones. */
export function astmMessages(text: string): { messages: AstmMessage[]; incomplete: number } {
  const { complete, incomplete } = splitMessages(splitRecords(text));
  return { messages: complete.map(parseAstmMessage), incomplete: incomplete.length };
}

interface OrderGroup {
  /** The segments in force for this OBR: MSH, PID, ORC, SPM ... as last seen, and the OBR. */
  context: Map<string, Hl7Segment>;
  obx: { seg: Hl7Segment; notes: string[] }[];
}

/**
 * The OBR groups of an HL7 message. SPM belongs to the OBR before it in ORU^R01 (OBR, OBX..., SPM)
 * and to the OBRs after it in OUL^R22 (SPM, OBR, OBX...): the specimen comes first there.
 */
function orderGroups(msg: Hl7Message): OrderGroup[] {
  const specimenFirst = msg.type.startsWith('OUL^');
  const latest = new Map<string, Hl7Segment>();
  const groups: OrderGroup[] = [];
  let last: OrderGroup['obx'][number] | null = null;
  for (const seg of msg.segments) {
    const group = groups[groups.length - 1];
    if (seg.name === 'OBR') {
      groups.push({ context: new Map([...latest, ['OBR', seg]]), obx: [] });
      last = null;
    } else if (seg.name === 'OBX') {
      // An OBX with no OBR before it (a sender that leaves OBR out) is read in the message's context.
      const g = group ?? { context: new Map(latest), obx: [] };
      if (!group) groups.push(g);
      last = { seg, notes: [] };
      g.obx.push(last);
    } else if (seg.name === 'NTE' && last) {
      const note = msg.get(seg, 3).trim();
      if (note) last.notes.push(note);
    } else if (seg.name === 'SPM') {
      if (!specimenFirst && group && !group.context.has('SPM_OWN')) {
        group.context.set('SPM', seg);
        group.context.set('SPM_OWN', seg);
      } else latest.set('SPM', seg);
    } else if (seg.name !== 'OBX' && seg.name !== 'NTE') {
      latest.set(seg.name, seg);
    }
  }
  return groups;
}

/** `12.6 %` `114.2 mmol/mol↑`: the value, its unit, and an arrow as the flag (H, L). */
function splitValue(piece: string): { value: string; unit: string; flag: string } {
  let t = piece.trim();
  let flag = '';
  const arrow = /[↑↓]$/.exec(t)?.[0];
  if (arrow) {
    flag = arrow === '↑' ? 'H' : 'L';
    t = t.slice(0, -1).trim();
  }
  const [value = '', ...unit] = t.split(/\s+/);
  return { value, unit: unit.join(' '), flag };
}

/**
 * HL7 results, read as the profile says. The standard profile: the specimen is SPM-2, else OBR-3
 * (filler order number), else OBR-2 (placer order number); the code OBX-3's first component; the
 * value OBX-5 (for CE/CWE its text, the second component, when sent); NTE after an OBX is its
 * comment. An OBX with no value or a status of D/X (deleted, cannot be obtained) is not a result.
 */
export function inboundFromHl7(msg: Hl7Message, profile: ResolvedProfile = INSTRUMENT_DEFAULTS.hl7): Inbound {
  const results: InboundResult[] = [];
  const skipped: InboundSkipped[] = [];
  for (const g of orderGroups(msg)) {
    const segOf = (name: string) => (name === 'MSH' ? msg.segment('MSH') : g.context.get(name));
    const specimen = firstSpecimen(profile.specimen, (loc) => {
      const { seg, field, component } = parseLocation(loc);
      return readHl7(msg, segOf(seg), field, component);
    });
    for (const { seg, notes } of g.obx) {
      const read = (loc: string) => {
        const l = parseLocation(loc);
        return readHl7(msg, l.seg === 'OBX' ? seg : segOf(l.seg), l.field, l.component);
      };
      const codeAt = parseLocation(profile.code);
      const codeSeg = codeAt.seg === 'OBX' ? seg : segOf(codeAt.seg);
      const codeParts = hl7Components(msg, codeSeg, codeAt.field);
      const status = msg.get(seg, 11);
      const valueAt = parseLocation(profile.value);
      const type = msg.get(seg, 2);
      // A coded value's text is its second component (CE/CWE), when the profile names no component.
      const coded = valueAt.seg === 'OBX' && valueAt.component === 0 && (type === 'CE' || type === 'CWE');
      const value =
        coded && msg.get(seg, valueAt.field, 2) ? msg.get(seg, valueAt.field, 2).trim() : read(profile.value);
      const code = codeFrom(codeParts, profile, (parts) => pick(parts, 1));
      const rule = profile.ignore.find((x) => ruleHolds(x, read(x.at)));
      const skip = (kind: InboundSkipped['kind'], detail: string, c = code, v = value) =>
        skipped.push({ specimenId: specimen.id, code: c, value: v, kind, detail });
      if (rule) {
        skip('ignored', `Ignored by the profile: ${describeRule(rule)}`);
        continue;
      }
      if (!value) {
        skip('no_value', 'No value sent');
        continue;
      }
      if (status === 'D' || status === 'X') {
        skip('not_done', `OBX-11 is ${status}: deleted or could not be obtained`);
        continue;
      }
      const base = {
        specimenId: specimen.id,
        specimenFrom: specimen.from,
        referenceRange: msg.get(seg, 7).trim(),
        comments: notes,
      };
      if (profile.split_text) {
        const names = msg
          .get(codeSeg, codeAt.field)
          .split(/\s{2,}/)
          .map((s) => s.trim())
          .filter(Boolean);
        const pieces = msg
          .get(seg, valueAt.field)
          .split(/\s{2,}/)
          .map((s) => s.trim())
          .filter(Boolean);
        pieces.forEach((piece, i) => {
          const v = splitValue(piece);
          if (!v.value) return void skip('no_value', 'No value sent', names[i] ?? '', piece);
          results.push({ ...base, code: names[i] ?? '', value: v.value, unit: v.unit, flag: v.flag });
        });
        continue;
      }
      results.push({ ...base, code, value, unit: read(profile.unit), flag: read(profile.flag) });
    }
  }
  const queries: InboundQuery[] = [];
  // Order pull (QRY / OML-style queries): QRD-8 who subject filter, first component, is the barcode.
  for (const qrd of msg.all('QRD')) {
    const id = msg.get(qrd, 8).trim();
    if (id) queries.push({ specimenId: id, range: [] });
  }
  return { results, queries, skipped };
}

/** A field's components (first repetition), unescaped. */
function hl7Components(msg: Hl7Message, seg: Hl7Segment | undefined, field: number): string[] {
  const raw = seg?.fields[field];
  if (raw === undefined) return [];
  const count = (raw.split(msg.encoding.repeat)[0] ?? '').split(msg.encoding.component).length;
  return Array.from({ length: count }, (_, i) => msg.get(seg, field, i + 1));
}

function readHl7(msg: Hl7Message, seg: Hl7Segment | undefined, field: number, component: number): string {
  return pick(hl7Components(msg, seg, field), component);
}

export { parseHl7 };
