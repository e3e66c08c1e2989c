import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../src/core/db/connection.js';
import { setupLab } from '../src/core/setup/service.js';
import { removeDatabase } from './dataset.js';
import { seededRandom } from './generate.js';

/**
 * A generated year of a busy lab: 300 visits a day for 365 days ending yesterday (about
 * 110,000 visits), each a patient, a bill of about four tests (1,200 results a day, about 440,000),
 * a payment, a sample with its tests and results. Cancelled bills (1%), refunds (1%), line and bill
 * discounts, referring doctors, rejected samples (2%), critical values with calls, verified results
 * with turnaround times spread from minutes to days. Built with prepared statements in one
 * transaction per day, so the summary triggers of migration 25 run as for the server's writes.
 */

export const YEAR_DAYS = 365;
export const VISITS_PER_DAY = 300;
const DAY_MS = 86_400_000;
const REASONS = ['Haemolysed', 'Clotted', 'Insufficient volume', 'Wrong container', 'Unlabelled'];
const METHODS = ['cash', 'card', 'upi'];
const ADMIN_EMAIL = 'year.admin@lab.test';

export interface ReportYear {
  file: string;
  organizationId: number;
  adminId: number;
  visits: number;
  results: number;
  builtSeconds: number | null;
}

function inspect(file: string): Omit<ReportYear, 'builtSeconds'> | null {
  const database = openDatabase(file);
  try {
    const s = database.sqlite;
    const org = s.prepare('SELECT id FROM organizations ORDER BY id LIMIT 1').get() as { id: number } | undefined;
    const admin = s.prepare('SELECT id FROM users WHERE email = ?').get(ADMIN_EMAIL) as { id: number } | undefined;
    if (!org || !admin) return null;
    const visits = (s.prepare('SELECT count(*) AS n FROM bills').get() as { n: number }).n;
    const results = (s.prepare('SELECT count(*) AS n FROM test_results').get() as { n: number }).n;
    return { file, organizationId: org.id, adminId: admin.id, visits, results };
  } finally {
    void database.close();
  }
}

export async function ensureReportYear(
  dir: string,
  log: (line: string) => void,
  days = YEAR_DAYS,
  perDay = VISITS_PER_DAY,
): Promise<ReportYear> {
  mkdirSync(dir, { recursive: true });
  // v2: samples completed and reported when their last result is verified (v1 marked every one completed).
  const file = join(dir, `lims-bench-year-v2-${days}x${perDay}.db`);
  if (existsSync(file)) {
    const found = inspect(file);
    if (found && found.visits === days * perDay) {
      log(
        `reusing ${file} (${found.visits.toLocaleString('en-IN')} visits, ${found.results.toLocaleString('en-IN')} results)`,
      );
      return { ...found, builtSeconds: null };
    }
    removeDatabase(file);
  }
  const started = performance.now();
  const database = openDatabase(file);
  const { organizationId, adminId } = await setupLab(database.db, {
    labName: 'Busy Year Diagnostics',
    labAddress: '4, Residency Road, Bengaluru',
    adminName: 'Year Admin',
    adminEmail: ADMIN_EMAIL,
    adminPassword: 'bench-password-2024',
    timezone: 'Asia/Kolkata',
    currency: 'INR',
    dateFormat: 'DD/MM/YYYY',
    importSampleTests: true,
    importSampleProfiles: false,
    importSamplePackages: false,
  });
  const s = database.sqlite;
  s.pragma('synchronous = OFF');
  s.pragma('cache_size = -262144');
  const rand = seededRandom(20261126);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const tests = s
    .prepare("SELECT id, name, code, price_paise FROM tests WHERE organization_id = ? AND status = 'active'")
    .all(organizationId) as { id: number; name: string; code: string; price_paise: number }[];
  if (tests.length < 8) throw new Error('the sample catalogue has too few tests for the year');
  // A target turnaround on every test, so the Enhanced Dashboard's breach list has work to do.
  s.prepare('UPDATE tests SET target_tat_minutes = 240 WHERE organization_id = ?').run(organizationId);
  const now = new Date().toISOString();
  const insDoctor = s.prepare(
    `INSERT INTO users (organization_id, email, password_hash, first_name, last_name, role, created_at, updated_at)
     VALUES (?, ?, 'x', ?, ?, 'doctor', ?, ?)`,
  );
  const doctors: number[] = [];
  for (let k = 0; k < 25; k++)
    doctors.push(
      Number(insDoctor.run(organizationId, `year.doctor${k}@lab.test`, 'Doctor', `No${k}`, now, now).lastInsertRowid),
    );
  const insPatient = s.prepare(
    `INSERT INTO patients (organization_id, patient_code, first_name, last_name, gender, date_of_birth, city, created_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'Bengaluru', ?, ?, ?)`,
  );
  const insBill = s.prepare(
    `INSERT INTO bills (organization_id, bill_number, patient_id, doctor_id, visit_type, subtotal_paise, consultation_fee_paise,
       total_before_discount_paise, discount_percentage, discount_amount_paise, tax_percentage, tax_amount_paise,
       final_amount_paise, paid_paise, payment_method, due_date, cancelled_at, cancel_reason, created_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'lab_only', ?, 0, ?, ?, ?, 0, 0, ?, 0, ?, ?, NULL, NULL, ?, ?, ?)`,
  );
  const insItem = s.prepare(
    `INSERT INTO bill_items (bill_id, position, item_type, test_id, name, code, qty, list_price_paise, unit_price_paise,
       gst_percent, discount_percent, discount_amount_paise, total_paise, taxable_paise)
     VALUES (?, ?, 'test', ?, ?, ?, 1, ?, ?, 0, ?, ?, ?, ?)`,
  );
  const insPay = s.prepare(
    `INSERT INTO payments (organization_id, bill_id, amount_paise, method, received_by, created_at, kind, status, patient_id, value_date, refund_of)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'completed', ?, ?, ?)`,
  );
  const setPaid = s.prepare('UPDATE bills SET paid_paise = ? WHERE id = ?');
  const cancelBill = s.prepare("UPDATE bills SET cancelled_at = ?, cancel_reason = 'Entered twice' WHERE id = ?");
  const insSample = s.prepare(
    `INSERT INTO samples (organization_id, sample_code, patient_id, bill_id, sample_type, status, rejection_reason,
       collection_date, completed_at, reported_at, created_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'Blood', ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insSampleTest = s.prepare('INSERT INTO sample_tests (sample_id, test_id, position) VALUES (?, ?, ?)');
  const insResult = s.prepare(
    `INSERT INTO test_results (organization_id, sample_id, test_id, patient_id, result_value, status, is_critical,
       technician_id, entered_at, verified_by, verified_at, amended, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insCall = s.prepare(
    `INSERT INTO critical_calls (organization_id, result_id, called_to, called_at, read_back, recorded_by, created_at)
     VALUES (?, ?, 'Dr on duty', ?, 1, ?, ?)`,
  );
  const midnight = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const iso = (ms: number) => new Date(ms).toISOString();
  let visitNo = 0;
  const oneDay = s.transaction((d: number) => {
    // The lab's day (IST): 07:30 to 19:30 local, 02:00 to 14:00 UTC.
    const dayStart = midnight - (days - d) * DAY_MS + 2 * 3_600_000;
    const ymd = iso(dayStart).slice(0, 10).replace(/-/g, '');
    for (let v = 0; v < perDay; v++) {
      visitNo += 1;
      const at = dayStart + Math.floor((v / perDay) * 12 * 3_600_000 + rand() * 60_000);
      const atIso = iso(at);
      const patientId = Number(
        insPatient.run(
          organizationId,
          `PAT${ymd}${String(v + 1).padStart(4, '0')}`,
          pick(['Asha', 'Ravi', 'Meena', 'Arjun', 'Fatima', 'John']),
          pick(['Rao', 'Sharma', 'Khan', 'Iyer', 'Das']),
          rand() < 0.5 ? 'Male' : 'Female',
          `${1940 + Math.floor(rand() * 80)}-0${1 + Math.floor(rand() * 9)}-1${Math.floor(rand() * 9)}`,
          adminId,
          atIso,
          atIso,
        ).lastInsertRowid,
      );
      const n = 2 + Math.floor(rand() * 5); // 2-6 tests, 4 on average
      const chosen = new Set<number>();
      while (chosen.size < n) chosen.add(Math.floor(rand() * tests.length));
      const lines = [...chosen].map((k) => {
        const t = tests[k]!;
        const dp = rand() < 0.1 ? 10 : 0;
        const disc = Math.round((t.price_paise * dp) / 100);
        return { t, dp, disc, total: t.price_paise - disc };
      });
      const subtotal = lines.reduce((a, l) => a + l.total, 0);
      const billDp = rand() < 0.05 ? 5 : 0;
      const billDisc = Math.round((subtotal * billDp) / 100);
      const final = subtotal - billDisc;
      const doctor = rand() < 0.7 ? pick(doctors) : null;
      const billId = Number(
        insBill.run(
          organizationId,
          `BILL${ymd}${String(v + 1).padStart(4, '0')}`,
          patientId,
          doctor,
          subtotal,
          subtotal,
          billDp,
          billDisc,
          final,
          pick(METHODS),
          atIso.slice(0, 10),
          adminId,
          atIso,
          atIso,
        ).lastInsertRowid,
      );
      lines.forEach((l, k) =>
        insItem.run(
          billId,
          k + 1,
          l.t.id,
          l.t.name,
          l.t.code,
          l.t.price_paise,
          l.t.price_paise,
          l.dp,
          l.disc,
          l.total,
          l.total,
        ),
      );
      const paid = rand() < 0.85 ? final : Math.floor(final / 2);
      const method = pick(METHODS);
      const payId = Number(
        insPay.run(organizationId, billId, paid, method, adminId, atIso, 'payment', patientId, atIso.slice(0, 10), null)
          .lastInsertRowid,
      );
      let net = paid;
      if (rand() < 0.01 && paid > 100) {
        const back = Math.floor(paid / 4);
        const atRefund = iso(at + 3_600_000);
        insPay.run(
          organizationId,
          billId,
          -back,
          method,
          adminId,
          atRefund,
          'refund',
          patientId,
          atRefund.slice(0, 10),
          payId,
        );
        net -= back;
      }
      setPaid.run(net, billId);
      if (rand() < 0.01) {
        cancelBill.run(iso(at + 600_000), billId);
        continue;
      }
      const collected = at + 5 * 60_000 + Math.floor(rand() * 20 * 60_000);
      const rejected = rand() < 0.02;
      // Each test's result first, so the sample's state follows from them as verification sets it:
      // completed and reported when its last result is verified, processing while one waits.
      const plans = rejected
        ? []
        : lines.map(() => {
            // Turnaround: mostly hours, a tail of days; the last day's work partly unverified.
            const tatMs = Math.floor(
              (30 + rand() * 240 + (rand() < 0.1 ? rand() * 2880 : 0)) * 60_000 + rand() * 60_000,
            );
            const verifiedAt = collected + tatMs;
            return {
              entered: collected + Math.floor(tatMs * 0.7),
              verifiedAt,
              verified: verifiedAt < Date.now() && rand() < 0.98,
            };
          });
      const done = !rejected && plans.every((p) => p.verified);
      const reportedAt = done ? iso(Math.max(...plans.map((p) => p.verifiedAt))) : null;
      const sampleId = Number(
        insSample.run(
          organizationId,
          `S${ymd}${String(v + 1).padStart(4, '0')}`,
          patientId,
          billId,
          rejected ? 'rejected' : done ? 'completed' : 'processing',
          rejected ? pick(REASONS) : null,
          iso(collected),
          reportedAt,
          reportedAt,
          adminId,
          atIso,
          atIso,
        ).lastInsertRowid,
      );
      lines.forEach((l, k) => {
        insSampleTest.run(sampleId, l.t.id, k + 1);
        if (rejected) return;
        const { entered, verifiedAt, verified } = plans[k]!;
        const critical = rand() < 0.02 ? 1 : 0;
        const resultId = Number(
          insResult.run(
            organizationId,
            sampleId,
            l.t.id,
            patientId,
            (rand() * 100).toFixed(1),
            verified ? 'verified' : 'completed',
            critical,
            adminId,
            iso(entered),
            verified ? adminId : null,
            verified ? iso(verifiedAt) : null,
            verified && rand() < 0.01 ? 1 : 0,
            atIso,
            atIso,
          ).lastInsertRowid,
        );
        if (critical && rand() < 0.9) {
          const called = iso(entered + Math.floor(rand() * 90 * 60_000));
          insCall.run(organizationId, resultId, called, adminId, called);
        }
      });
    }
  });
  for (let d = 0; d < days; d++) {
    oneDay(d);
    if ((d + 1) % 73 === 0 || d + 1 === days)
      log(`  day ${d + 1} of ${days} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
  s.pragma('wal_checkpoint(TRUNCATE)');
  s.pragma('synchronous = FULL');
  s.exec('ANALYZE');
  await database.close();
  const found = inspect(file);
  if (!found || found.visits !== visitNo) throw new Error('the year was not built');
  return { ...found, builtSeconds: (performance.now() - started) / 1000 };
}
