/**
 * The UCUM code of the units Indian lab reports write: a FHIR Quantity carries
 * system http://unitsofmeasure.org and a code only for a unit in this table, so a receiver never
 * gets a unit code that UCUM does not define. Other units travel as text (Quantity.unit, OBX-6 text).
 * A full UCUM parser (@lhncbc/ucum-lhc) would accept more spellings; it is not a dependency yet.
 */
const UCUM: Record<string, string> = {
  '%': '%',
  'g/dL': 'g/dL',
  'g/L': 'g/L',
  'mg/dL': 'mg/dL',
  'mg/L': 'mg/L',
  'µg/dL': 'ug/dL',
  'ug/dL': 'ug/dL',
  'mcg/dL': 'ug/dL',
  'µg/L': 'ug/L',
  'ng/mL': 'ng/mL',
  'ng/dL': 'ng/dL',
  'pg/mL': 'pg/mL',
  pg: 'pg',
  fL: 'fL',
  fl: 'fL',
  'U/L': 'U/L',
  'IU/L': '[IU]/L',
  'IU/mL': '[IU]/mL',
  'mIU/mL': 'm[IU]/mL',
  'mIU/L': 'm[IU]/L',
  'µIU/mL': 'u[IU]/mL',
  'uIU/mL': 'u[IU]/mL',
  'mEq/L': 'meq/L',
  'mmol/L': 'mmol/L',
  'µmol/L': 'umol/L',
  'umol/L': 'umol/L',
  'mm/hr': 'mm/h',
  'mm/h': 'mm/h',
  sec: 's',
  s: 's',
  seconds: 's',
  min: 'min',
  'cells/cumm': '/uL',
  'cells/µL': '/uL',
  'cells/uL': '/uL',
  '/cumm': '/uL',
  'million/cumm': '10*6/uL',
  'million/µL': '10*6/uL',
  'lakhs/cumm': '10*5/uL',
  'thousand/cumm': '10*3/uL',
  '10^3/µL': '10*3/uL',
  '10^6/µL': '10*6/uL',
  'mL/min/1.73m²': 'mL/min/{1.73_m2}',
  'mL/min/1.73m2': 'mL/min/{1.73_m2}',
};

/** The UCUM code of a lab unit, or null when the unit is not one UCUM defines as written. */
export function ucumOf(unit: string | null | undefined): string | null {
  if (!unit) return null;
  return UCUM[unit.trim()] ?? null;
}
