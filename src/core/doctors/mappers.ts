import type { DoctorRow } from './repository.js';
import { PERSON_TITLES, doctorTitledName, type PersonTitle } from '../../shared/person-name.js';
import { isNoEmailPlaceholder, type Doctor } from '../../shared/schemas/doctors.js';

/** A row as the API answers it: money in rupees, no stand-in email, the doctor's referrals beside it. */
export function toDoctor(r: DoctorRow, referrals?: { referrals: number; last_at: string | null }): Doctor {
  return {
    id: r.id,
    title: (PERSON_TITLES as readonly string[]).includes(r.title ?? '') ? (r.title as PersonTitle) : null,
    first_name: r.first_name,
    last_name: r.last_name,
    email: isNoEmailPlaceholder(r.email) ? null : r.email,
    phone: r.phone,
    specialization: r.specialization,
    qualification: r.qualification ?? null,
    experience_years:
      r.experience_years === null || r.experience_years === undefined ? null : Number(r.experience_years),
    consultation_fee: r.consultation_fee_paise / 100,
    registration_number: r.registration_number ?? null,
    status: r.status,
    can_sign_in: Number(r.can_sign_in) === 1,
    last_login: r.last_login,
    referrals: referrals?.referrals ?? 0,
    last_referral_at: referrals?.last_at ?? null,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** What the audit trail keeps of a doctor: the record's own fields, not derived figures or timestamps. */
export function doctorAuditValues(d: Doctor): Record<string, unknown> {
  const { referrals: _r, last_referral_at: _l, updated_at: _u, last_login: _ll, ...rest } = d;
  return rest;
}

/** "Dr. Meena Kulkarni": the doctor's own title, Dr when none was given. */
export function doctorName(d: Pick<Doctor, 'first_name' | 'last_name'> & { title?: string | null }): string {
  return doctorTitledName(d);
}
