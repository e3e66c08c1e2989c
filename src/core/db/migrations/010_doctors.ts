/**
 * Doctor Management. A doctor stays a row of users (role doctor): bills, visits and the
 * spec's `GET /api/users?role=doctor` name doctors by user id. What only doctors have lives beside
 * it, one row per doctor, created when the doctor is first saved through /api/doctors (a doctor
 * added on the Users screen has none until then). The status keeps why a doctor is not active
 * (inactive, suspended, pending); users.is_active stays the one switch that billing and sign-in read.
 */
export const sql = /* sql */ `
CREATE TABLE doctor_profiles (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  qualification TEXT,
  experience_years INTEGER CHECK (experience_years IS NULL OR (experience_years >= 0 AND experience_years <= 80)),
  registration_number TEXT,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive','suspended','pending')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX doctor_profiles_org ON doctor_profiles (organization_id, status);
`;
