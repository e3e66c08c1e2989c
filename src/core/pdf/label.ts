import type { Sample } from '../../shared/schemas/samples.js';
import { formatAge } from '../../shared/age.js';
import { localDate } from '../../shared/time.js';
import { tubeLabel } from '../../shared/tubes.js';
import type { OrganizationRow } from '../settings/service.js';
import { barcodePng } from './barcode.js';
import { newDocument, toBuffer } from './document.js';
import { formatLabDateTime } from './format.js';

const MM = 72 / 25.4;
/** Tube sticker: 50 x 25 mm. */
export const LABEL_SIZE: [number, number] = [50 * MM, 25 * MM];

/** "45 y / F": the age on the day the tube was drawn (today while pending) and the sex, as the bench checks them. */
export function ageSex(sample: Sample, timeZone: string): string {
  const day = localDate(timeZone, sample.collection_date ? new Date(sample.collection_date) : new Date());
  const age = formatAge(sample.patient_dob, day, 'short');
  const sex = sample.patient_gender ? sample.patient_gender.charAt(0).toUpperCase() : null;
  return [age, sex].filter(Boolean).join(' / ');
}

/**
 * A tube label, top to bottom: patient name with age and sex; patient code and the tube (its
 * colour or container); Code 128 of the barcode with the code under it; the tests the tube is for
 * (up to two lines); sample ID, collection time and the lab's name.
 */
export async function sampleLabelPdf(org: OrganizationRow, sample: Sample): Promise<Buffer> {
  if (!sample.barcode) throw new Error(`sample ${sample.sample_id} has no barcode yet`);
  const [w, h] = LABEL_SIZE;
  const doc = newDocument({ size: LABEL_SIZE, margin: 0, title: `Label ${sample.sample_id}`, author: org.name });
  const pad = 1.6 * MM;
  const inner = w - 2 * pad;
  const top = 1.4 * MM;

  // Age and sex at the right; the name takes what is left, shrunk to fit (down to 5 pt, then ellipsis).
  const facts = ageSex(sample, org.timezone);
  doc.font('bold').fontSize(7);
  const factsWidth = facts ? doc.widthOfString(facts) + 3 : 0;
  if (facts) doc.text(facts, w - pad - factsWidth + 3, top, { width: factsWidth, lineBreak: false });
  const name = `${sample.first_name} ${sample.last_name}`.trim();
  const nameWidth = inner - factsWidth;
  let size = 7;
  while (size > 5 && doc.fontSize(size).widthOfString(name) > nameWidth) size -= 0.25;
  doc.fontSize(size).text(name, pad, top, { width: nameWidth, height: 8.5, ellipsis: true, lineBreak: false });

  const tube = tubeLabel(sample.container) ?? sample.sample_type;
  doc
    .font('regular')
    .fontSize(5.6)
    .text(`${sample.patient_number} · ${tube}`, pad, top + 8, {
      width: inner,
      height: 7,
      lineBreak: false,
      ellipsis: true,
    });

  const png = await barcodePng(sample.barcode, 'code128', { scale: 3, height: 10, text: false });
  const barTop = top + 15;
  const barHeight = 7.5 * MM;
  doc.image(png, pad, barTop, { fit: [inner, barHeight], align: 'center' });
  doc
    .font('regular')
    .fontSize(6)
    .text(sample.barcode, pad, barTop + barHeight + 0.4, { width: inner, align: 'center', lineBreak: false });

  const tests = sample.tests.map((t) => t.code).join(', ');
  const testsTop = barTop + barHeight + 7.2;
  if (tests)
    doc
      .font('bold')
      .fontSize(5.2)
      .text(tests, pad, testsTop, { width: inner, height: 12.4, ellipsis: true, lineGap: -0.6 });

  const when = sample.collection_date
    ? formatLabDateTime(sample.collection_date, org.date_format, org.timezone)
    : 'not collected';
  doc
    .font('regular')
    .fontSize(5)
    .text(`${sample.sample_id} · ${when} · ${org.name}`, pad, h - pad - 5, {
      width: inner,
      height: 6,
      align: 'center',
      lineBreak: false,
      ellipsis: true,
    });
  return toBuffer(doc);
}
