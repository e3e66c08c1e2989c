/**
 * Results out to hospitals ("Out"; docs/decisions.md "Reports out: HL7 and FHIR"):
 * - tests carry an optional LOINC code (checked NNNNN-N with its check digit by the API);
 * - the starter tests a lab loaded before this release get the code the starter catalogue now
 *   ships, only where the lab's test is still the shipped one (same code, name and unit): a test the
 *   lab renamed or gave another unit may measure something else, and is left for the lab to code;
 * - receivers: the hospital systems (MLLP or HTTP) a verified report is pushed to, for one payer
 *   (a referring hospital, a corporate client...) or for all reports; and the delivery log, one row
 *   per report and receiver, which is also the queue the sender works through.
 */

/** [code, name, unit, LOINC] of the starter tests as shipped before migration 27. Frozen: never edit. */
const STARTER_LOINC: [string, string, string | null, string][] = [
  ['HB', 'Haemoglobin', 'g/dL', '718-7'],
  ['TLC', 'Total Leucocyte Count (TLC)', 'cells/cumm', '6690-2'],
  ['NEUT', 'Neutrophils', '%', '770-8'],
  ['LYMPH', 'Lymphocytes', '%', '736-9'],
  ['MONO', 'Monocytes', '%', '5905-5'],
  ['EOS', 'Eosinophils', '%', '713-8'],
  ['BASO', 'Basophils', '%', '706-2'],
  ['RBC', 'RBC Count', 'million/cumm', '789-8'],
  ['PCV', 'Packed Cell Volume (PCV / Haematocrit)', '%', '4544-3'],
  ['MCV', 'Mean Corpuscular Volume (MCV)', 'fL', '787-2'],
  ['MCH', 'Mean Corpuscular Haemoglobin (MCH)', 'pg', '785-6'],
  ['MCHC', 'Mean Corpuscular Haemoglobin Concentration (MCHC)', 'g/dL', '786-4'],
  ['RDW', 'Red Cell Distribution Width (RDW-CV)', '%', '788-0'],
  ['PLT', 'Platelet Count', 'lakhs/cumm', '777-3'],
  ['ESR', 'Erythrocyte Sedimentation Rate (ESR)', 'mm/hr', '30341-2'],
  ['BGRH', 'Blood Group & Rh Typing', null, '882-1'],
  ['RETIC', 'Reticulocyte Count', '%', '4679-7'],
  ['PT', 'Prothrombin Time (PT)', 'sec', '5902-2'],
  ['INR', 'International Normalised Ratio (INR)', null, '6301-6'],
  ['FBS', 'Fasting Blood Sugar (FBS)', 'mg/dL', '1558-6'],
  ['PPBS', 'Post Prandial Blood Sugar (PPBS)', 'mg/dL', '1521-4'],
  ['RBS', 'Random Blood Sugar (RBS)', 'mg/dL', '2345-7'],
  ['HBA1C', 'HbA1c (Glycated Haemoglobin)', '%', '4548-4'],
  ['CHOL', 'Total Cholesterol', 'mg/dL', '2093-3'],
  ['TG', 'Triglycerides', 'mg/dL', '2571-8'],
  ['HDL', 'HDL Cholesterol', 'mg/dL', '2085-9'],
  ['LDL', 'LDL Cholesterol', 'mg/dL', '13457-7'],
  ['VLDL', 'VLDL Cholesterol', 'mg/dL', '13458-5'],
  ['NONHDL', 'Non-HDL Cholesterol', 'mg/dL', '43396-1'],
  ['CHOLHDL', 'Total Cholesterol / HDL Ratio', null, '9830-1'],
  ['LDLHDL', 'LDL / HDL Ratio', null, '11054-4'],
  ['TBIL', 'Bilirubin Total', 'mg/dL', '1975-2'],
  ['DBIL', 'Bilirubin Direct', 'mg/dL', '1968-7'],
  ['IBIL', 'Bilirubin Indirect', 'mg/dL', '1971-1'],
  ['SGOT', 'SGOT (AST)', 'U/L', '1920-8'],
  ['SGPT', 'SGPT (ALT)', 'U/L', '1742-6'],
  ['ALP', 'Alkaline Phosphatase (ALP)', 'U/L', '6768-6'],
  ['GGT', 'Gamma GT (GGT)', 'U/L', '2324-2'],
  ['TP', 'Total Protein', 'g/dL', '2885-2'],
  ['ALB', 'Albumin', 'g/dL', '1751-7'],
  ['GLOB', 'Globulin', 'g/dL', '10834-0'],
  ['AGR', 'A/G Ratio', null, '1759-0'],
  ['UREA', 'Blood Urea', 'mg/dL', '3091-6'],
  ['BUN', 'Blood Urea Nitrogen (BUN)', 'mg/dL', '3094-0'],
  ['CREAT', 'Serum Creatinine', 'mg/dL', '2160-0'],
  ['BUNCR', 'BUN / Creatinine Ratio', null, '3097-3'],
  ['UA', 'Uric Acid', 'mg/dL', '3084-1'],
  ['NA', 'Sodium', 'mEq/L', '2951-2'],
  ['K', 'Potassium', 'mEq/L', '2823-3'],
  ['CL', 'Chloride', 'mEq/L', '2075-0'],
  ['CA', 'Calcium (Total)', 'mg/dL', '17861-6'],
  ['PHOS', 'Phosphorus (Inorganic)', 'mg/dL', '2777-1'],
  ['MG', 'Magnesium', 'mg/dL', '19123-9'],
  ['AMY', 'Amylase', 'U/L', '1798-8'],
  ['LIP', 'Lipase', 'U/L', '3040-3'],
  ['LDH', 'Lactate Dehydrogenase (LDH)', 'U/L', '2532-0'],
  ['IRON', 'Serum Iron', 'µg/dL', '2498-4'],
  ['TIBC', 'Total Iron Binding Capacity (TIBC)', 'µg/dL', '2500-7'],
  ['TSAT', 'Transferrin Saturation', '%', '2502-3'],
  ['FERR', 'Ferritin', 'ng/mL', '2276-4'],
  ['T3', 'T3 (Total Triiodothyronine)', 'ng/dL', '3053-6'],
  ['T4', 'T4 (Total Thyroxine)', 'µg/dL', '3026-2'],
  ['TSH', 'TSH (Thyroid Stimulating Hormone)', 'µIU/mL', '3016-3'],
  ['FT3', 'Free T3 (FT3)', 'pg/mL', '3051-0'],
  ['FT4', 'Free T4 (FT4)', 'ng/dL', '3024-7'],
  ['UMA', 'Urine Microalbumin', 'mg/L', '14957-5'],
  ['CRP', 'C-Reactive Protein (CRP), Quantitative', 'mg/L', '1988-5'],
  ['B12', 'Vitamin B12 (Cyanocobalamin)', 'pg/mL', '2132-9'],
  ['FOLATE', 'Folic Acid (Serum Folate)', 'ng/mL', '2284-8'],
  ['UPT', 'Urine Pregnancy Test (hCG)', null, '2106-3'],
];

const q = (s: string | null) => (s === null ? 'NULL' : `'${s.replace(/'/g, "''")}'`);
const fill = STARTER_LOINC.map(
  ([code, name, unit, loinc]) =>
    `UPDATE tests SET loinc_code = ${q(loinc)} WHERE loinc_code IS NULL AND code = ${q(code)} AND name = ${q(name)} AND ${
      unit === null ? 'unit IS NULL' : `unit = ${q(unit)}`
    };`,
).join('\n');

export const sql = /* sql */ `
ALTER TABLE tests ADD COLUMN loinc_code TEXT;
${fill}

CREATE TABLE interop_receivers (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('mllp','http')),
  host TEXT,
  port INTEGER CHECK (port IS NULL OR (port BETWEEN 1 AND 65535)),
  url TEXT,
  payer_id INTEGER REFERENCES payers(id),
  enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0,1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((kind = 'mllp' AND host IS NOT NULL AND port IS NOT NULL AND url IS NULL)
      OR (kind = 'http' AND url IS NOT NULL AND host IS NULL AND port IS NULL))
);
CREATE UNIQUE INDEX interop_receivers_org_name ON interop_receivers (organization_id, name);

CREATE TABLE interop_deliveries (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  receiver_id INTEGER NOT NULL REFERENCES interop_receivers(id) ON DELETE CASCADE,
  sample_id INTEGER NOT NULL REFERENCES samples(id),
  message_id TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','sending','sent','failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  claimed_at TEXT,
  last_error TEXT,
  response TEXT,
  created_at TEXT NOT NULL,
  sent_at TEXT
);
CREATE INDEX interop_deliveries_due ON interop_deliveries (status, next_attempt_at);
CREATE INDEX interop_deliveries_org ON interop_deliveries (organization_id, id);
`;
