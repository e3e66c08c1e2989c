import type { Sample } from '../../shared/schemas/samples.js';
import type { OrganizationRow } from '../settings/organization.js';
import { barcodePng } from './barcode.js';
import { newDocument, toBuffer } from './document.js';
import { formatLabDateTime } from './format.js';

const MM = 72 / 25.4;
/** Tube sticker: 50 x 25 mm. */
export const LABEL_SIZE: [number, number] = [50 * MM, 25 * MM];

/** A tube label: patient name, code, sample type, the lab's name, Code 128 of the barcode, collection time. */
export async function sampleLabelPdf(org: OrganizationRow, sample: Sample): Promise<Buffer> {
  if (!sample.barcode) throw new Error(`sample ${sample.sample_id} has no barcode yet`);
  const [w, h] = LABEL_SIZE;
  const doc = newDocument({ size: LABEL_SIZE, margin: 0, title: `Label ${sample.sample_id}`, author: org.name });
  const pad = 2 * MM;
  const inner = w - 2 * pad;
  // Shrink a long name to fit the sticker rather than cut the surname off (down to 5 pt, then ellipsis).
  const name = `${sample.first_name} ${sample.last_name}`;
  doc.font('bold');
  let size = 7;
  while (size > 5 && doc.fontSize(size).widthOfString(name) > inner) size -= 0.25;
  doc.fontSize(size).text(name, pad, pad, { width: inner, height: 8.5, ellipsis: true, lineBreak: false });
  doc
    .font('regular')
    .fontSize(5.6)
    .text(`${sample.patient_number} · ${sample.sample_type} · ${org.name}`, pad, pad + 8.5, {
      width: inner,
      height: 7,
      lineBreak: false,
      ellipsis: true,
    });
  const png = await barcodePng(sample.barcode, 'code128', { scale: 3, height: 10, text: false });
  const barTop = pad + 16;
  doc.image(png, pad, barTop, { fit: [inner, 9 * MM], align: 'center' });
  doc
    .font('regular')
    .fontSize(6.2)
    .text(sample.barcode, pad, barTop + 9 * MM + 0.5, { width: inner, align: 'center', lineBreak: false });
  const when = sample.collection_date
    ? formatLabDateTime(sample.collection_date, org.date_format, org.timezone)
    : 'not collected';
  doc
    .fontSize(5.2)
    .text(`${sample.sample_id} · ${when}`, pad, h - pad - 5.5, { width: inner, align: 'center', lineBreak: false });
  return toBuffer(doc);
}
