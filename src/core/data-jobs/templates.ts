import { PassThrough } from 'node:stream';
import { type AnyEntity, recordWriter } from '../transfer/service.js';
import type { DataFormat } from '../../shared/schemas/data-jobs.js';

/**
 * Import templates (the data screens' Download Template): an entity's columns (the ones an import
 * reads; computed columns left out) and one example row, written by the export writers so a
 * template is read back exactly as an export is. The example of the standalone entities (users,
 * doctors, tests, patients) imports as it is; the others name records it refers to (a test code,
 * a patient code) that must exist in the lab.
 */
const EXAMPLES: Record<string, Record<string, unknown>> = {
  users: {
    email: 'priya.sharma@example.in',
    first_name: 'Priya',
    last_name: 'Sharma',
    role: 'receptionist',
    department: 'Front Desk',
    phone: '9876543210',
    is_active: true,
  },
  doctors: {
    email: 'dr.rao@example.in',
    first_name: 'Suresh',
    last_name: 'Rao',
    phone: '9812345678',
    specialization: 'General Medicine',
    qualification: 'MBBS, MD',
    experience_years: 12,
    consultation_fee: 500,
    registration_number: 'KMC-45678',
    status: 'active',
  },
  tests: {
    code: 'HBA1C',
    name: 'Glycated Haemoglobin (HbA1c)',
    category: 'Biochemistry',
    price: 450,
    unit: '%',
    normal_range: '4.0-5.6',
    sample_type: 'Blood',
    container: 'EDTA (lavender)',
    turnaround_hours: 24,
    result_type: 'numeric',
    decimals: 1,
    status: 'active',
  },
  profiles: {
    code: 'DIAB',
    name: 'Diabetes Profile',
    category: 'Biochemistry',
    price: 900,
    status: 'active',
    test_codes: ['HBA1C', 'FBS'],
  },
  packages: {
    code: 'WELL1',
    name: 'Basic Wellness Package',
    category: 'Wellness',
    price: 1999,
    duration: 'Same day',
    status: 'active',
    test_codes: ['HBA1C'],
    profile_codes: ['DIAB'],
  },
  patients: {
    first_name: 'Anita',
    last_name: 'Desai',
    date_of_birth: '1985-06-15',
    gender: 'Female',
    phone: '9123456780',
    email: 'anita.desai@example.in',
    address: '12 MG Road',
    city: 'Pune',
    state: 'Maharashtra',
    pincode: '411001',
    blood_group: 'B+',
    membership_type: 'none',
  },
  bills: {
    bill_number: 'BILL-2026-00001',
    bill_date: '2026-04-01',
    patient_patient_id: 'PAT20260401001',
    visit_type: 'lab_only',
    discount_percentage: 0,
    tax_percentage: 0,
    payment_method: 'cash',
    items: [{ item_type: 'test', code: 'HBA1C', qty: 1, price: 450, gst_percent: 0 }],
    payments: [{ amount: 450, method: 'cash', created_at: '2026-04-01T10:30:00+05:30' }],
  },
  samples: {
    sample_id: 'SMP20260401001',
    patient_number: 'PAT20260401001',
    sample_type: 'Blood',
    container: 'EDTA (lavender)',
    test_codes: ['HBA1C'],
    priority: 'normal',
    status: 'collected',
    collection_date: '2026-04-01T09:15:00+05:30',
  },
  results: {
    sample_id: 'SMP20260401001',
    test_code: 'HBA1C',
    result_value: '5.4',
    unit: '%',
    normal_range: '4.0-5.6',
    flag: 'normal',
    status: 'entered',
    entered_at: '2026-04-01T14:00:00+05:30',
  },
  payers: {
    name: 'Sunrise Corporate Health',
    type: 'corporate',
    gstin: '29AAACS1234F1Z5',
    address: '12 MG Road, Bengaluru',
    contact_person: 'Kavya Rao',
    phone: '9845022222',
    email: 'accounts@sunrise.example.in',
    credit_limit: 50000,
    payment_terms_days: 30,
    discount_percent: 10,
    status: 'active',
  },
  payer_prices: {
    payer_name: 'Sunrise Corporate Health',
    item_type: 'test',
    item_code: 'HBA1C',
    price: 380,
    effective_from: '2026-04-01',
  },
  suppliers: {
    name: 'Medisource Diagnostics',
    contact_person: 'Anil Mehta',
    phone: '9845011111',
    email: 'orders@medisource.example.in',
    gstin: '27AAPFU0939F1ZV',
    lead_time_days: 5,
  },
  inventory: {
    item_code: 'GLU-R1',
    item_name: 'Glucose reagent (GOD-POD)',
    kind: 'reagent',
    category: 'Biochemistry',
    unit: 'tests',
    current_stock: 500,
    minimum_stock: 100,
    maximum_stock: 1000,
    unit_cost: 12.5,
    supplier: 'Medisource Diagnostics',
    status: 'active',
    catalog_number: 'GL-500',
    storage_temp: '2-8 °C',
    expiry_date: '2027-06-30',
    lot_number: 'LOT-2411',
  },
  equipment: {
    serial_number: 'AU480-2210-0042',
    kind: 'machine',
    name: 'Chemistry analyser',
    model: 'AU480',
    type: 'Chemistry Analyzer',
    location: 'Biochemistry',
    status: 'operational',
    installed_on: '2024-04-01',
  },
  calibrations: {
    equipment_serial_number: 'AU480-2210-0042',
    type: 'Routine',
    status: 'completed',
    due_date: '2026-03-01',
    interval_days: 180,
    performed_by: 'Service engineer',
    performed_at: '2026-03-02',
    accuracy: 99.2,
    description: 'Two-point calibration',
  },
  maintenance: {
    equipment_serial_number: 'AU480-2210-0042',
    type: 'Preventive',
    due_date: '2026-12-15',
    interval_days: 90,
  },
};

export const TEMPLATE_TYPES: Record<DataFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json; charset=utf-8',
};

export async function templateFile(entity: AnyEntity, format: DataFormat): Promise<Buffer> {
  const columns = entity.columns.filter((c) => !c.readOnly);
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  const writer = await recordWriter(format, out, columns, entity.name);
  await writer.write([EXAMPLES[entity.name] ?? {}]);
  await writer.close();
  if (!out.writableEnded) out.end();
  await done;
  return Buffer.concat(chunks);
}
