import type { OrderAnswer } from '../astm/records.js';
import { escapeHl7, replyHeader, type Hl7Message } from './message.js';

/**
 * The answer to an HL7 order query, as the HL7 v2.3.1 original-mode query (QRY^Q02) is answered
 * and as the HL7 analysers of small labs (Mindray BS and BC series) ask it: first QCK^Q02 (MSA,
 * ERR, QAK-2 `OK` when there is something to run, `NF` when not found or nothing to run), then,
 * when there is, DSR^Q03 with the query echoed (QRD, QRF) and the sample as DSP lines:
 * DSP-1 patient ID, 3 name, 4 date of birth, 5 sex (M/F/O), 21 barcode, 22 sample ID, 24 STAT (Y/N),
 * 26 sample type, and 29 onwards one test each (`code^^^`), then DSC. The machine answers the DSR
 * with ACK^Q03, which is logged and not answered.
 */
export function buildQueryReplies(
  msg: Hl7Message,
  answer: OrderAnswer,
  controlIds: { qck: string; dsr: string },
): { qck: string; dsr: string | null } {
  const e = msg.encoding;
  const f = e.field;
  const found = answer.testCodes.length > 0;
  const head = (type: string, controlId: string) => [
    replyHeader(msg, `${type}${e.component}${type === 'QCK' ? 'Q02' : 'Q03'}`, controlId),
    ['MSA', 'AA', msg.controlId, 'Message accepted', '', '', '0'].join(f),
    ['ERR', '0'].join(f),
    ['QAK', 'SR', found ? 'OK' : 'NF'].join(f),
  ];
  const qck = `${head('QCK', controlIds.qck).join('\r')}\r`;
  if (!found) return { qck, dsr: null };
  const s = answer.sample;
  const line = (n: number, value: string) => ['DSP', String(n), '', value, '', ''].join(f);
  const esc = (v: string | null | undefined) => escapeHl7(v ?? '', e);
  const values: Record<number, string> = {
    1: esc(answer.patientId),
    3: esc(s?.patientName),
    4: s?.dateOfBirth ? `${s.dateOfBirth.slice(0, 10).replace(/-/g, '')}000000` : '',
    5: s?.gender ? s.gender.charAt(0).toUpperCase() : '',
    21: esc(answer.specimenId),
    22: esc(s?.sampleCode),
    24: s?.stat ? 'Y' : 'N',
    26: esc(s?.sampleType),
  };
  const dsp: string[] = [];
  for (let n = 1; n <= 28; n++) dsp.push(line(n, values[n] ?? ''));
  answer.testCodes.forEach((code, i) =>
    dsp.push(line(29 + i, `${esc(code)}${e.component}${e.component}${e.component}`)),
  );
  const echo = ['QRD', 'QRF'].flatMap((name) => msg.all(name).map((seg) => seg.fields.join(f)));
  const dsr = [...head('DSR', controlIds.dsr), ...echo, ...dsp, ['DSC', '', ''].join(f)];
  return { qck, dsr: `${dsr.join('\r')}\r` };
}
