/**
 * A structural check of the FHIR R4 Bundles lims sends: the required elements and
 * cardinalities of the R4 base resources used (Bundle, Organization, Patient, Specimen,
 * ServiceRequest, Observation, DiagnosticReport), their code sets where R4 binds them as required,
 * the primitive formats, the invariants that matter here (qty-3, obs-3, obs-6/7, bdl-7) and that
 * every reference resolves inside the Bundle. A validator against the published
 * StructureDefinitions (the `fhir` package, or @medplum/core's validateResource) is not a
 * dependency; this is the careful hand-written substitute, answering a list of problems.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- walks arbitrary FHIR JSON, element by element
type J = Record<string, any>;

const DATE_TIME =
  /^([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)(-(0[1-9]|1[0-2])(-(0[1-9]|[1-2][0-9]|3[0-1])(T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?(Z|(\+|-)((0[0-9]|1[0-3]):[0-5][0-9]|14:00)))?)?)?$/;
const INSTANT =
  /^([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)-(0[1-9]|1[0-2])-(0[1-9]|[1-2][0-9]|3[0-1])T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?(Z|(\+|-)((0[0-9]|1[0-3]):[0-5][0-9]|14:00))$/;
const DATE = /^([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)(-(0[1-9]|1[0-2])(-(0[1-9]|[1-2][0-9]|3[0-1]))?)?$/;
const URI = /^\S*$/;
const CODE = /^[^\s]+( [^\s]+)*$/;

const ALLOWED: Record<string, string[]> = {
  Bundle: ['resourceType', 'id', 'meta', 'identifier', 'type', 'timestamp', 'total', 'link', 'entry', 'signature'],
  Organization: ['resourceType', 'id', 'identifier', 'active', 'type', 'name', 'alias', 'telecom', 'address', 'partOf'],
  Patient: ['resourceType', 'id', 'identifier', 'active', 'name', 'telecom', 'gender', 'birthDate', 'address'],
  Specimen: [
    'resourceType',
    'id',
    'identifier',
    'accessionIdentifier',
    'status',
    'type',
    'subject',
    'receivedTime',
    'parent',
    'request',
    'collection',
    'note',
  ],
  ServiceRequest: [
    'resourceType',
    'id',
    'identifier',
    'basedOn',
    'status',
    'intent',
    'category',
    'priority',
    'code',
    'subject',
    'authoredOn',
    'requester',
    'performer',
    'specimen',
    'note',
  ],
  Observation: [
    'resourceType',
    'id',
    'identifier',
    'basedOn',
    'status',
    'category',
    'code',
    'subject',
    'effectiveDateTime',
    'issued',
    'performer',
    'valueQuantity',
    'valueString',
    'valueCodeableConcept',
    'dataAbsentReason',
    'interpretation',
    'note',
    'specimen',
    'referenceRange',
  ],
  DiagnosticReport: [
    'resourceType',
    'id',
    'identifier',
    'basedOn',
    'status',
    'category',
    'code',
    'subject',
    'effectiveDateTime',
    'issued',
    'performer',
    'specimen',
    'result',
    'conclusion',
  ],
};

const BINDINGS: Record<string, Record<string, string[]>> = {
  Bundle: {
    type: [
      'document',
      'message',
      'transaction',
      'transaction-response',
      'batch',
      'batch-response',
      'history',
      'searchset',
      'collection',
    ],
  },
  Patient: { gender: ['male', 'female', 'other', 'unknown'] },
  Specimen: { status: ['available', 'unavailable', 'unsatisfactory', 'entered-in-error'] },
  ServiceRequest: {
    status: ['draft', 'active', 'on-hold', 'revoked', 'completed', 'entered-in-error', 'unknown'],
    intent: [
      'proposal',
      'plan',
      'directive',
      'order',
      'original-order',
      'reflex-order',
      'filler-order',
      'instance-order',
      'option',
    ],
  },
  Observation: {
    status: ['registered', 'preliminary', 'final', 'amended', 'corrected', 'cancelled', 'entered-in-error', 'unknown'],
  },
  DiagnosticReport: {
    status: [
      'registered',
      'partial',
      'preliminary',
      'final',
      'amended',
      'corrected',
      'appended',
      'cancelled',
      'entered-in-error',
      'unknown',
    ],
  },
};

const REQUIRED: Record<string, string[]> = {
  Bundle: ['type'],
  ServiceRequest: ['status', 'intent', 'subject'],
  Observation: ['status', 'code'],
  DiagnosticReport: ['status', 'code'],
};

/** Elements whose R4 cardinality is 0..* (must be arrays when present); the rest used here are 0..1. */
const ARRAYS = new Set([
  'identifier',
  'entry',
  'type:Organization',
  'telecom',
  'name:Patient',
  'basedOn',
  'category',
  'performer',
  'specimen:ServiceRequest',
  'specimen:DiagnosticReport',
  'interpretation',
  'note',
  'referenceRange',
  'result',
  'address',
  'given',
  'coding',
]);

function checkCoding(c: J, at: string, out: string[]) {
  if (c.system !== undefined && !URI.test(c.system)) out.push(`${at}.system is not a uri`);
  if (c.code !== undefined && !CODE.test(c.code)) out.push(`${at}.code is not a code`);
}

function checkCodeableConcept(cc: J, at: string, out: string[]) {
  if (typeof cc !== 'object' || cc === null || Array.isArray(cc))
    return void out.push(`${at} is not a CodeableConcept`);
  if (cc.coding !== undefined) {
    if (!Array.isArray(cc.coding)) out.push(`${at}.coding must be an array`);
    else cc.coding.forEach((c: J, i: number) => checkCoding(c, `${at}.coding[${i}]`, out));
  }
  if (!cc.coding?.length && !cc.text) out.push(`${at} has neither coding nor text`);
}

function checkQuantity(q: J, at: string, out: string[]) {
  if (typeof q.value !== 'number' || !Number.isFinite(q.value)) out.push(`${at}.value must be a decimal`);
  // qty-3: a code needs a system.
  if (q.code !== undefined && q.system === undefined) out.push(`${at}: a code without a system (qty-3)`);
  for (const k of Object.keys(q))
    if (!['value', 'comparator', 'unit', 'system', 'code'].includes(k))
      out.push(`${at}.${k} is not a Quantity element`);
}

function checkReference(r: J, at: string, urls: Set<string>, out: string[]) {
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return void out.push(`${at} is not a Reference`);
  if (r.reference === undefined && r.display === undefined && r.identifier === undefined)
    out.push(`${at} names nothing (ref-1)`);
  if (r.reference !== undefined && !urls.has(r.reference)) out.push(`${at} -> ${r.reference} is not in the Bundle`);
}

function walkReferences(v: unknown, at: string, urls: Set<string>, out: string[]) {
  if (Array.isArray(v)) return v.forEach((x, i) => walkReferences(x, `${at}[${i}]`, urls, out));
  if (typeof v !== 'object' || v === null) return;
  const o = v as J;
  if ('reference' in o || ('display' in o && Object.keys(o).length === 1)) return checkReference(o, at, urls, out);
  for (const [k, x] of Object.entries(o)) walkReferences(x, `${at}.${k}`, urls, out);
}

function checkEmpty(v: unknown, at: string, out: string[]) {
  // ele-1: no empty objects, arrays, strings or nulls anywhere.
  if (v === null || v === '') return void out.push(`${at} is empty`);
  if (Array.isArray(v)) {
    if (!v.length) out.push(`${at} is an empty array`);
    return v.forEach((x, i) => checkEmpty(x, `${at}[${i}]`, out));
  }
  if (typeof v === 'object') {
    if (!Object.keys(v as J).length) out.push(`${at} is an empty object`);
    for (const [k, x] of Object.entries(v as J)) checkEmpty(x, `${at}.${k}`, out);
  }
}

function checkResource(r: J, at: string, urls: Set<string>, out: string[]) {
  const type = r.resourceType as string;
  const allowed = ALLOWED[type];
  if (!allowed) return void out.push(`${at}: resourceType ${type} is not one this check knows`);
  for (const k of Object.keys(r)) if (!allowed.includes(k)) out.push(`${at}.${k} is not an element of ${type}`);
  for (const k of REQUIRED[type] ?? []) if (r[k] === undefined) out.push(`${at}.${k} is required (1..1)`);
  for (const [k, codes] of Object.entries(BINDINGS[type] ?? {}))
    if (r[k] !== undefined && !codes.includes(r[k])) out.push(`${at}.${k} = ${r[k]} is not in the required value set`);
  for (const [k, v] of Object.entries(r)) {
    const many = ARRAYS.has(k) || ARRAYS.has(`${k}:${type}`);
    if (many && !Array.isArray(v)) out.push(`${at}.${k} must be an array (0..*)`);
    if (!many && Array.isArray(v) && k !== 'resourceType') out.push(`${at}.${k} must not be an array (0..1)`);
  }
  for (const k of ['code', 'type']) if (r[k] && !Array.isArray(r[k])) checkCodeableConcept(r[k], `${at}.${k}`, out);
  for (const k of ['category', 'interpretation', 'type'])
    if (Array.isArray(r[k])) r[k].forEach((c: J, i: number) => checkCodeableConcept(c, `${at}.${k}[${i}]`, out));
  if (r.birthDate !== undefined && !DATE.test(r.birthDate)) out.push(`${at}.birthDate is not a date`);
  for (const k of ['effectiveDateTime', 'authoredOn', 'receivedTime'])
    if (r[k] !== undefined && !DATE_TIME.test(r[k])) out.push(`${at}.${k} is not a dateTime`);
  if (r.collection?.collectedDateTime !== undefined && !DATE_TIME.test(r.collection.collectedDateTime))
    out.push(`${at}.collection.collectedDateTime is not a dateTime`);
  if (r.issued !== undefined && !INSTANT.test(r.issued)) out.push(`${at}.issued is not an instant`);
  if (Array.isArray(r.identifier))
    r.identifier.forEach((id: J, i: number) => {
      if (id.system !== undefined && !URI.test(id.system)) out.push(`${at}.identifier[${i}].system is not a uri`);
    });
  if (type === 'Observation') {
    const values = Object.keys(r).filter((k) => k.startsWith('value'));
    if (values.length > 1) out.push(`${at} has ${values.length} value[x] (0..1)`);
    if (values.length && r.dataAbsentReason) out.push(`${at}: value and dataAbsentReason together (obs-6)`);
    if (r.valueQuantity) checkQuantity(r.valueQuantity, `${at}.valueQuantity`, out);
    if (r.valueString !== undefined && typeof r.valueString !== 'string') out.push(`${at}.valueString is not a string`);
    (r.referenceRange ?? []).forEach((rr: J, i: number) => {
      // obs-3: low, high or text.
      if (!rr.low && !rr.high && !rr.text) out.push(`${at}.referenceRange[${i}] has no low, high or text (obs-3)`);
      if (rr.low) checkQuantity(rr.low, `${at}.referenceRange[${i}].low`, out);
      if (rr.high) checkQuantity(rr.high, `${at}.referenceRange[${i}].high`, out);
    });
  }
  walkReferences(r, at, urls, out);
}

/** The problems of a Bundle against the R4 structure of the resources it holds; [] when none. */
export function checkR4Bundle(bundle: J): string[] {
  const out: string[] = [];
  if (bundle.resourceType !== 'Bundle') return ['resourceType must be Bundle'];
  checkEmpty(bundle, 'Bundle', out);
  for (const k of Object.keys(bundle)) if (!ALLOWED.Bundle!.includes(k)) out.push(`Bundle.${k} is not an element`);
  if (!BINDINGS.Bundle!.type!.includes(bundle.type)) out.push(`Bundle.type ${bundle.type} is not a bundle type`);
  if (bundle.timestamp !== undefined && !INSTANT.test(bundle.timestamp)) out.push('Bundle.timestamp is not an instant');
  if (bundle.type === 'document' && !bundle.identifier) out.push('a document Bundle needs an identifier (bdl-9)');
  if (!Array.isArray(bundle.entry)) return [...out, 'Bundle.entry must be an array'];
  const urls = new Set<string>();
  bundle.entry.forEach((e: J, i: number) => {
    for (const k of Object.keys(e))
      if (!['fullUrl', 'resource', 'link', 'search', 'request', 'response'].includes(k))
        out.push(`entry[${i}].${k} is not an element`);
    if (!e.resource) out.push(`entry[${i}].resource is missing (bdl-5)`);
    if (e.fullUrl) {
      if (
        !/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(e.fullUrl) &&
        !/^https?:\/\//.test(e.fullUrl)
      )
        out.push(`entry[${i}].fullUrl ${e.fullUrl} is not an absolute URL or urn:uuid`);
      // bdl-7: fullUrl unique.
      if (urls.has(e.fullUrl)) out.push(`entry[${i}].fullUrl repeats (bdl-7)`);
      urls.add(e.fullUrl);
    }
  });
  bundle.entry.forEach(
    (e: J, i: number) => e.resource && checkResource(e.resource, `entry[${i}].${e.resource.resourceType}`, urls, out),
  );
  return out;
}
