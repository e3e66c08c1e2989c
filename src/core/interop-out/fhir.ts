import { randomUUID } from 'node:crypto';
import type { OutLine, OutReport } from './report.js';
import { abnormalFlag } from './hl7.js';
import { ucumOf } from './ucum.js';

/**
 * A FHIR R4 Bundle (type collection) of a verified report: Organization (the lab),
 * Patient, Specimen, ServiceRequest, an Observation per result (LOINC coding where the catalogue
 * has it plus the lab's own code, valueQuantity with UCUM where the unit is one, referenceRange,
 * interpretation) and the DiagnosticReport that references them. Entries are named by urn:uuid
 * fullUrls, so the Bundle stands alone. Plain JSON objects: no FHIR library is a dependency yet.
 */

type Json = Record<string, unknown>;

const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';
const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const V2_0074 = 'http://terminology.hl7.org/CodeSystem/v2-0074';
const V2_0203 = 'http://terminology.hl7.org/CodeSystem/v2-0203';

/** The lab's own code systems: a URN per lab, so two labs' test codes never mean the same thing. */
export const labSystem = (labId: number, what: 'tests' | 'patients' | 'samples' | 'orders' | 'reports') =>
  `urn:lims:lab:${labId}:${what}`;

const INTERPRETATION_TEXT: Record<string, string> = {
  N: 'Normal',
  L: 'Low',
  H: 'High',
  A: 'Abnormal',
  LL: 'Critical low',
  HH: 'Critical high',
  AA: 'Critical abnormal',
};

const genderOf = (g: string | null) => (g === 'Male' ? 'male' : g === 'Female' ? 'female' : g ? 'other' : 'unknown');

/** A Quantity: UCUM system and code only for a unit UCUM defines; the lab's text in unit always. */
function quantity(value: number, unit: string | null): Json {
  const code = ucumOf(unit);
  return code ? { value, unit, system: UCUM, code } : unit ? { value, unit } : { value };
}

function referenceRange(line: OutLine): Json[] {
  const r = line.range;
  if (!r || !line.range_text) return [];
  if (r.kind === 'between')
    return [{ low: quantity(r.low, line.unit), high: quantity(r.high, line.unit), text: line.range_text }];
  if (r.kind === 'below') return [{ high: quantity(r.limit, line.unit), text: line.range_text }];
  if (r.kind === 'above') return [{ low: quantity(r.limit, line.unit), text: line.range_text }];
  return [{ text: line.range_text }];
}

function observation(
  report: OutReport,
  line: OutLine,
  refs: { patient: string; specimen: string; order: string },
): Json {
  const flag = abnormalFlag(line);
  const coding: Json[] = [];
  if (line.loinc) coding.push({ system: LOINC, code: line.loinc, display: line.name });
  coding.push({ system: labSystem(report.lab.id, 'tests'), code: line.code, display: line.name });
  const range = referenceRange(line);
  return {
    resourceType: 'Observation',
    identifier: [
      {
        system: labSystem(report.lab.id, 'reports'),
        value: `${report.sample.code}-${line.result_id}${line.part ? `-${line.part}` : ''}`,
      },
    ],
    basedOn: [{ reference: refs.order }],
    status: line.amended ? 'corrected' : 'final',
    category: [{ coding: [{ system: OBSERVATION_CATEGORY, code: 'laboratory', display: 'Laboratory' }] }],
    code: { coding, text: line.name },
    subject: { reference: refs.patient },
    ...(report.sample.collected_at ? { effectiveDateTime: report.sample.collected_at } : {}),
    ...(line.verified_at ? { issued: line.verified_at } : {}),
    ...(line.numeric !== null ? { valueQuantity: quantity(line.numeric, line.unit) } : { valueString: line.value }),
    ...(line.flag
      ? {
          interpretation: [{ coding: [{ system: INTERPRETATION, code: flag, display: INTERPRETATION_TEXT[flag] }] }],
        }
      : {}),
    ...(line.notes ? { note: [{ text: line.notes }] } : {}),
    specimen: { reference: refs.specimen },
    ...(range.length ? { referenceRange: range } : {}),
  };
}

/** The Bundle of one verified report; `messageId` is its identifier (and the delivery's). */
export function buildBundle(report: OutReport, opts: { messageId: string; now?: Date }): Json {
  const { lab, patient, sample } = report;
  const url = () => `urn:uuid:${randomUUID()}`;
  const ids = { org: url(), patient: url(), specimen: url(), order: url(), report: url() };
  const refs = { patient: ids.patient, specimen: ids.specimen, order: ids.order };
  const observations = report.lines.map((line) => ({ fullUrl: url(), resource: observation(report, line, refs) }));
  const amended = report.lines.some((l) => l.amended);
  const entries: { fullUrl: string; resource: Json }[] = [
    {
      fullUrl: ids.org,
      resource: {
        resourceType: 'Organization',
        active: true,
        type: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/organization-type', code: 'prov' }] }],
        name: lab.name,
        ...(lab.phone ? { telecom: [{ system: 'phone', value: lab.phone }] } : {}),
      },
    },
    {
      fullUrl: ids.patient,
      resource: {
        resourceType: 'Patient',
        identifier: [
          {
            use: 'usual',
            type: { coding: [{ system: V2_0203, code: 'MR' }] },
            system: labSystem(lab.id, 'patients'),
            value: patient.code,
            assigner: { display: lab.name },
          },
        ],
        name: [
          { family: patient.last_name || patient.first_name, given: patient.last_name ? [patient.first_name] : [] },
        ],
        ...(patient.phone ? { telecom: [{ system: 'phone', value: patient.phone }] } : {}),
        gender: genderOf(patient.gender),
        ...(patient.date_of_birth ? { birthDate: patient.date_of_birth.slice(0, 10) } : {}),
      },
    },
    {
      fullUrl: ids.specimen,
      resource: {
        resourceType: 'Specimen',
        identifier: [{ system: labSystem(lab.id, 'samples'), value: sample.code }],
        ...(sample.barcode
          ? { accessionIdentifier: { system: labSystem(lab.id, 'samples'), value: sample.barcode } }
          : {}),
        status: 'available',
        ...(sample.type ? { type: { text: sample.type } } : {}),
        subject: { reference: ids.patient },
        ...(sample.collected_at ? { collection: { collectedDateTime: sample.collected_at } } : {}),
      },
    },
    {
      fullUrl: ids.order,
      resource: {
        resourceType: 'ServiceRequest',
        identifier: [{ system: labSystem(lab.id, 'orders'), value: sample.bill_number ?? sample.code }],
        status: 'completed',
        intent: 'order',
        category: [
          { coding: [{ system: 'http://snomed.info/sct', code: '108252007', display: 'Laboratory procedure' }] },
        ],
        code: { text: report.lines.map((l) => l.name).join(', ') || 'Laboratory tests' },
        subject: { reference: ids.patient },
        ...(report.doctor ? { requester: { display: report.doctor } } : {}),
        performer: [{ reference: ids.org }],
        specimen: [{ reference: ids.specimen }],
      },
    },
    ...observations,
    {
      fullUrl: ids.report,
      resource: {
        resourceType: 'DiagnosticReport',
        identifier: [{ system: labSystem(lab.id, 'reports'), value: sample.code }],
        basedOn: [{ reference: ids.order }],
        status: amended ? 'corrected' : 'final',
        category: [{ coding: [{ system: V2_0074, code: 'LAB', display: 'Laboratory' }] }],
        code: { coding: [{ system: LOINC, code: '11502-2', display: 'Laboratory report' }], text: 'Laboratory report' },
        subject: { reference: ids.patient },
        ...(sample.collected_at ? { effectiveDateTime: sample.collected_at } : {}),
        issued: sample.reported_at,
        performer: [{ reference: ids.org }],
        specimen: [{ reference: ids.specimen }],
        result: observations.map((o) => ({ reference: o.fullUrl })),
      },
    },
  ];
  return {
    resourceType: 'Bundle',
    identifier: { system: labSystem(lab.id, 'reports'), value: opts.messageId },
    type: 'collection',
    timestamp: (opts.now ?? new Date()).toISOString(),
    entry: entries,
  };
}
