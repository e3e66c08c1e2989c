import type { Selectable } from 'kysely';
import type { PatientsTable } from '../db/schema.js';
import { ageOn, formatAge } from '../../shared/age.js';
import type { Patient } from '../../shared/schemas/patients.js';

export type PatientRow = Selectable<PatientsTable>;

/**
 * Who the patient is, as every view of a patient names them (the record, a possible duplicate):
 * `today` is the lab's date (labToday), on which the age is counted.
 */
export function patientIdentity(r: PatientRow, today: string) {
  return {
    id: r.id,
    patient_id: r.patient_code,
    title: r.title,
    first_name: r.first_name,
    last_name: r.last_name,
    date_of_birth: r.date_of_birth,
    dob_estimated: r.dob_estimated === 1,
    age: ageOn(r.date_of_birth, today),
    gender: r.gender,
    phone: r.phone,
  };
}

/** The API's patient; `today` is the lab's date (labToday), on which the age is counted. */
export function toPatient(r: PatientRow, today: string): Patient {
  return {
    ...patientIdentity(r, today),
    age_text: formatAge(r.date_of_birth, today),
    email: r.email,
    address: r.address,
    city: r.city,
    state: r.state,
    pincode: r.pincode,
    emergency_contact: r.emergency_contact,
    emergency_phone: r.emergency_phone,
    emergency_relation: r.emergency_relation,
    blood_group: r.blood_group,
    allergies: r.allergies,
    medical_history: r.medical_history,
    insurance_provider: r.insurance_provider,
    insurance_number: r.insurance_number,
    legacy_id: r.legacy_id,
    membership_type: r.membership_type,
    status: 'active',
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}
