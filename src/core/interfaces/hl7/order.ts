import type { OrderAnswer } from '../astm/records.js';
import { DEFAULT_ENCODING, escapeHl7, hl7Now } from './message.js';

/**
 * An order download to an HL7 analyser (ORM^O01, v2.3.1 as the Mindray BS/BC series and most
 * small-lab analysers take it): MSH, PID (patient code, name, date of birth, sex), then per test an
 * ORC (NW, placer order number = the specimen ID) and an OBR (OBR-2 the specimen ID, OBR-4 the
 * machine's code, OBR-5 S for a STAT sample else R, OBR-7 the collection time, OBR-15 the sample
 * type). The machine answers with an ACK whose MSA-2 is this message's control ID.
 */
export function buildOrderMessage(answer: OrderAnswer, controlId: string, now = new Date()): string {
  const e = DEFAULT_ENCODING;
  const f = e.field;
  const esc = (v: string | null | undefined) => escapeHl7(v ?? '', e);
  const s = answer.sample;
  const [first = '', ...rest] = (s?.patientName ?? '').split(' ');
  const collected = s?.collectedAt ? hl7Now(new Date(s.collectedAt)) : '';
  const segs = [
    [
      'MSH',
      `${e.component}${e.repeat}${e.escape}${e.subcomponent}`,
      'lims',
      '',
      '',
      '',
      hl7Now(now),
      '',
      'ORM^O01',
      controlId,
      'P',
      '2.3.1',
    ].join(f),
    [
      'PID',
      '1',
      '',
      esc(answer.patientId),
      '',
      `${esc(rest.join(' '))}${e.component}${esc(first)}`,
      '',
      s?.dateOfBirth ? s.dateOfBirth.slice(0, 10).replace(/-/g, '') : '',
      s?.gender ? s.gender.charAt(0).toUpperCase() : '',
    ].join(f),
  ];
  answer.testCodes.forEach((code, i) => {
    segs.push(['ORC', 'NW', esc(answer.specimenId), '', '', '', '', '', '', hl7Now(now)].join(f));
    const obr: string[] = [
      'OBR',
      String(i + 1),
      esc(answer.specimenId),
      '',
      `${esc(code)}${e.component}${e.component}${e.component}`,
      s?.stat ? 'S' : 'R',
      '',
      collected,
    ];
    while (obr.length < 15) obr.push('');
    obr.push(esc(s?.sampleType));
    segs.push(obr.join(f));
  });
  return `${segs.join('\r')}\r`;
}
