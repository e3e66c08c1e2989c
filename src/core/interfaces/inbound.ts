import { parseAstmMessage, splitMessages, splitRecords, type AstmMessage } from './astm/records.js';
import { parseHl7, type Hl7Message, type Hl7Segment } from './hl7/message.js';

/**
 * What a machine's message says, whatever the protocol: results (a specimen ID, the machine's test
 * code, value, unit, flag) and queries (the specimen IDs whose orders it asks for).
 */
export interface InboundResult {
  specimenId: string;
  code: string;
  value: string;
  unit: string;
  flag: string;
  referenceRange: string;
  comments: string[];
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
}

/**
 * ASTM: the specimen is O-3 (first component); Sysmex sends O-3 empty and its sample number in
 * O-4 (instrument specimen ID: rack^position^sample), so O-4's first non-empty component is next.
 * An R record without a value (a Sysmex flag such as "Anemia" with only an A) carries no result.
 */
export function inboundFromAstm(msg: AstmMessage): Inbound {
  const results: InboundResult[] = [];
  for (const p of msg.patients) {
    for (const o of p.orders) {
      const specimenId = o.specimenId || o.instrumentSpecimenId.find((c) => c !== '') || '';
      for (const r of o.results) {
        if (r.value === '') continue;
        results.push({
          specimenId,
          code: r.code,
          value: r.value,
          unit: r.unit,
          flag: r.flag,
          referenceRange: r.referenceRange,
          comments: r.comments,
        });
      }
    }
  }
  return {
    results,
    queries: msg.queries.flatMap((q) => q.specimenIds.map((specimenId) => ({ specimenId, range: q.range }))),
  };
}

/** The complete ASTM messages (H through L) in a transmission's text, and the incomplete ones. */
export function astmMessages(text: string): { messages: AstmMessage[]; incomplete: number } {
  const { complete, incomplete } = splitMessages(splitRecords(text));
  return { messages: complete.map(parseAstmMessage), incomplete: incomplete.length };
}

interface OrderGroup {
  obr: Hl7Segment;
  spm: Hl7Segment | null;
  obx: { seg: Hl7Segment; notes: string[] }[];
}

/**
 * HL7 ORU: the specimen is SPM-2 (first component), else OBR-3 (filler order number), else OBR-2
 * (placer order number), first component; the test is OBX-3's first component; NTE after an OBX
 * is its comment. OBX with an empty value or a status of D/X (deleted, cannot be obtained) carry
 * no result.
 */
export function inboundFromHl7(msg: Hl7Message): Inbound {
  const groups: OrderGroup[] = [];
  let last: OrderGroup['obx'][number] | null = null;
  for (const seg of msg.segments) {
    if (seg.name === 'OBR') {
      groups.push({ obr: seg, spm: null, obx: [] });
      last = null;
    } else if (seg.name === 'OBX' && groups.length) {
      last = { seg, notes: [] };
      groups[groups.length - 1]!.obx.push(last);
    } else if (seg.name === 'SPM' && groups.length) {
      groups[groups.length - 1]!.spm ??= seg;
    } else if (seg.name === 'NTE' && last) {
      const note = msg.get(seg, 3).trim();
      if (note) last.notes.push(note);
    }
  }
  const results: InboundResult[] = [];
  for (const g of groups) {
    const specimenId = (msg.get(g.spm ?? undefined, 2) || msg.get(g.obr, 3) || msg.get(g.obr, 2)).trim();
    for (const { seg, notes } of g.obx) {
      const type = msg.get(seg, 2);
      const status = msg.get(seg, 11);
      let value = msg.get(seg, 5);
      if ((type === 'CE' || type === 'CWE') && msg.get(seg, 5, 2)) value = msg.get(seg, 5, 2);
      value = value.trim();
      if (!value || status === 'D' || status === 'X') continue;
      results.push({
        specimenId,
        code: msg.get(seg, 3).trim(),
        value,
        unit: msg.get(seg, 6).trim(),
        flag: msg.get(seg, 8).trim(),
        referenceRange: msg.get(seg, 7).trim(),
        comments: notes,
      });
    }
  }
  const queries: InboundQuery[] = [];
  // Order pull (QRY / OML-style queries): QRD-8 who subject filter, first component, is the barcode.
  for (const qrd of msg.all('QRD')) {
    const id = msg.get(qrd, 8).trim();
    if (id) queries.push({ specimenId: id, range: [] });
  }
  return { results, queries };
}

export { parseHl7 };
