import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createSample } from '../../src/core/samples/service.js';
import { rejectResult, verifyResult } from '../../src/core/results/verification.js';
import { createMaterial } from '../../src/core/qc/service.js';
import { recordTestRun } from '../../src/core/qc/runs.js';
import { createConnection } from '../../src/core/interfaces/service.js';
import { findConnectionRow, type ConnectionRow } from '../../src/core/interfaces/repository.js';
import { receiveAstmText } from '../../src/core/interfaces/receive.js';
import { systemActor, type Actor } from '../../src/core/context.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { sampleCreateSchema } from '../../src/shared/schemas/samples.js';
import { qcMaterialCreateSchema } from '../../src/shared/schemas/qc.js';
import { connectionCreateSchema } from '../../src/shared/schemas/connections.js';
import { MOBILE, screenshot, screenshotFailures, startApp, type E2eApp } from './harness.js';

/**
 * Autoverification in the browser, as the pathologist: a rule set written on the editor (a bad
 * number named under its field), approved, run in shadow while an analyzer sends glucose results
 * and a validator acts on them, the comparison read (the result the rules would have released and
 * a person sent back comes first, with its patient and the person's reason), then activated live:
 * the next normal glucose from the analyzer releases itself (the sample completed, the validation
 * queue naming the rule set and its approver as verifier), an abnormal one waits with its reason
 * on the queue and on the review; the lab-wide stop holds the next result. At 1280 px and 390 px.
 */
let app: E2eApp;
let glucose: number;
let analyser: ConnectionRow;
let tech: Actor;
let validator: Actor;
const watch = screenshotFailures();
const WIDE = { width: 1280, height: 800 };

async function actorOf(email: string, role: Actor['role']): Promise<Actor> {
  const row = await app.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return { userId: row.id, email, role, organizationId: app.organizationId! };
}

/** A sample (created collected) of one patient with glucose ordered; its barcode is what the analyzer reads. */
async function tube(first: string, last: string): Promise<{ id: number; barcode: string }> {
  const db = app.database.db;
  const system = systemActor(app.organizationId!);
  const p = await createPatient(
    db,
    system,
    patientCreateSchema.parse({ first_name: first, last_name: last, date_of_birth: '1980-01-01', gender: 'Female' }),
  );
  const s = await createSample(
    db,
    system,
    sampleCreateSchema.parse({ patient_id: p.id, sample_type: 'Blood', test_ids: [glucose], priority: 'normal' }),
  );
  return { id: s.id, barcode: s.barcode! };
}

/** The analyzer sends one glucose for the tube (through the interface's own receiving path). */
async function analyze(t: { id: number; barcode: string }, value: string) {
  const text = ['H|\\^&|||Sim^1', 'P|1', `O|1|${t.barcode}||^^^GLU|R`, `R|1|^^^GLU|${value}|mg/dL||N||F`, 'L|1|N'];
  await receiveAstmText(app.database.db, analyser, text.join('\r'));
  return app.database.db
    .selectFrom('test_results')
    .select(['id', 'status', 'autoverified_by'])
    .where('sample_id', '=', t.id)
    .executeTakeFirstOrThrow();
}

beforeAll(async () => {
  app = await startApp({ roles: ['lab_manager', 'validator', 'lab_technician'] });
  const db = app.database.db;
  const system = systemActor(app.organizationId!);
  tech = await actorOf(app.users.lab_technician!.email, 'lab_technician');
  validator = await actorOf(app.users.validator!.email, 'validator');
  glucose = (
    await createTest(
      db,
      system,
      testCreateSchema.parse({
        name: 'Glucose',
        code: 'GLU',
        price: 100,
        unit: 'mg/dL',
        normal_range: '70-110',
        category: 'Biochemistry',
        critical_low: 40,
        critical_high: 450,
      }),
    )
  ).id;
  const material = await createMaterial(
    db,
    system,
    qcMaterialCreateSchema.parse({
      name: 'Glucose control',
      test_id: glucose,
      level: 'Level 1',
      target_mean: 100,
      target_sd: 3,
    }),
  );
  const qc = await recordTestRun(db, tech, {
    test_id: glucose,
    values: [{ material_id: material.id, value: 101 }],
    performed_at: new Date(Date.now() - 3_600_000).toISOString(),
  });
  expect(qc.status).toBe('passed');
  const conn = await createConnection(
    db,
    system,
    connectionCreateSchema.parse({
      name: 'Chemistry analyser',
      protocol: 'astm',
      transport: 'tcp-server',
      port: 6551,
      enabled: false,
      code_map: [{ code: 'GLU', test_id: glucose }],
    }),
  );
  analyser = (await findConnectionRow(db, app.organizationId!, conn.id))!;
}, 120_000);

afterAll(async () => {
  await app?.close();
});

async function rowAction(page: Page, name: RegExp) {
  await page.getByRole('button', { name }).click();
}

describe('Autoverification, as the pathologist', () => {
  it.each([
    ['desktop', WIDE],
    ['phone', MOBILE],
  ] as const)(
    'on %s: write, shadow, compare, go live; a normal glucose releases itself, an abnormal one waits',
    async (kind, viewport) => {
      // A retried attempt writes its own rule set and patients, never finding the last attempt's.
      const tag = `${kind}${Array.from({ length: 4 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;
      const name = `Chemistry ${tag}`;
      const page = watch(await app.signedInPage('/autoverification', app.users.lab_manager!, viewport));
      await page.getByRole('heading', { name: 'Autoverification', level: 1 }).waitFor();
      await screenshot(page, `autoverify-${kind}-start`);

      // The editor: the lab's default rules, every condition a checkbox or a number.
      await page.getByRole('button', { name: 'New Rule Set' }).click();
      const editor = page.getByRole('dialog', { name: 'New Rule Set' });
      await editor.getByLabel('Name', { exact: true }).fill(name);
      expect(await editor.getByLabel('No critical value', { exact: true }).isChecked()).toBe(true);
      await expect(editor.getByLabel('QC run within', { exact: true }).inputValue()).resolves.toBe('24');
      await editor.getByLabel('QC run within', { exact: true }).fill('twelve');
      await editor.getByRole('button', { name: 'Create Draft' }).click();
      await editor.getByText('QC age must be a whole number of hours').waitFor();
      await editor.getByLabel('QC run within', { exact: true }).scrollIntoViewIfNeeded();
      await screenshot(page, `autoverify-${kind}-editor-error`);
      await editor.getByLabel('QC run within', { exact: true }).fill('12');
      // A per-test rule: glucose with its own delta limit.
      await editor.getByLabel('Add test').selectOption({ label: 'Glucose (GLU)' });
      await editor.getByRole('button', { name: 'Add Test' }).click();
      await editor.getByLabel('Own conditions (Glucose)').check();
      await editor.getByLabel('Own delta limit (Glucose)').check();
      await editor.getByLabel('Delta limit (Glucose)', { exact: true }).fill('25');
      await editor.getByLabel('Delta limit (Glucose)', { exact: true }).scrollIntoViewIfNeeded();
      await screenshot(page, `autoverify-${kind}-editor`);
      await editor.getByRole('button', { name: 'Create Draft' }).click();
      await editor.waitFor({ state: 'hidden' });
      const row = page.getByRole('row').filter({ hasText: name });
      await row.getByText('Draft').waitFor();
      const stored = await app.database.db
        .selectFrom('autoverify_rule_sets')
        .select(['id', 'version', 'document'])
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      const doc = JSON.parse(stored.document);
      expect(doc.defaults.qc_within_hours).toBe(12);
      // Only what differs from the defaults is the test's own.
      expect(doc.tests).toEqual([
        { test_id: glucose, enabled: true, conditions: { delta: { kind: 'percent', limit: 25 } } },
      ]);
      const v = `${name} v${stored.version}`;

      // Approved in the pathologist's name, then run in shadow.
      await rowAction(page, new RegExp(`^Approve ${v}$`));
      await page.getByRole('dialog', { name: 'Approve rule set' }).getByRole('button', { name: 'Approve' }).click();
      await row.getByText('Approved', { exact: true }).waitFor();
      await rowAction(page, new RegExp(`^Activate ${v}$`));
      const activate = page.getByRole('dialog', { name: `Activate ${v}` });
      await activate.getByText('release nothing').first().waitFor();
      await activate.getByRole('button', { name: 'Run in Shadow' }).click();
      await activate.waitFor({ state: 'hidden' });
      await row.getByText('Shadow', { exact: true }).waitFor();
      await page.getByText('judging, releasing nothing').waitFor();

      // A shadow week in miniature: the analyzer sends, a validator acts.
      const sentBack = await tube('Meera', `Sentback${tag}`);
      const released = await tube('Ravi', `Released${tag}`);
      const a = await analyze(sentBack, '95');
      const b = await analyze(released, '140');
      expect([a.status, b.status]).toEqual(['completed', 'completed']);
      await rejectResult(app.database.db, validator, a.id, { reason: 'Clotted sample' });
      await verifyResult(app.database.db, validator, b.id);

      await page.getByRole('link', { name: 'Shadow Comparison' }).click();
      await page.getByRole('heading', { name: 'Shadow Comparison', level: 1 }).waitFor();
      await page.getByLabel('Rule set').selectOption({ label: v });
      await page.getByRole('group', { name: 'Compared', exact: true }).getByText('2', { exact: true }).waitFor();
      await page.getByRole('group', { name: 'Agreement' }).getByText('0.0%').waitFor();
      const risk = page.getByRole('list', { name: 'Rules would release, a person held' });
      await risk.getByText(`Meera Sentback${tag}`).waitFor();
      await risk.getByText('Sent it back: Clotted sample').waitFor();
      const stricter = page.getByRole('list', { name: 'Rules would hold, a person released' });
      await stricter.getByText('held: 140 mg/dL is high against the reference range 70-110').waitFor();
      await screenshot(page, `autoverify-${kind}-comparison`, { fullPage: true });

      // Live from now.
      await page.goto('/autoverification');
      await page.getByRole('heading', { name: 'Autoverification', level: 1 }).waitFor();
      await rowAction(page, new RegExp(`^Activate ${v}$`));
      await activate.getByLabel('Mode').selectOption('live');
      await activate.getByText('release every result that passes all its rules').waitFor();
      await activate.getByRole('button', { name: 'Activate Live' }).click();
      await activate.waitFor({ state: 'hidden' });
      await row.getByText('Live', { exact: true }).waitFor();
      await screenshot(page, `autoverify-${kind}-live`, { fullPage: true });

      // The analyzer again: the normal one releases itself, the high one waits.
      const normal = await tube('Anil', `Normal${tag}`);
      const high = await tube('Sita', `High${tag}`);
      const n = await analyze(normal, '92');
      const h = await analyze(high, '150');
      expect(n.status).toBe('verified');
      expect(n.autoverified_by).toMatch(
        new RegExp(`^Autoverification rule set v${stored.version} \\(approved by .+\\)$`),
      );
      expect(h.status).toBe('completed');
      const sample = await app.database.db
        .selectFrom('samples')
        .select('status')
        .where('id', '=', normal.id)
        .executeTakeFirstOrThrow();
      expect(sample.status).toBe('completed');

      await page.goto(`/result-validation?status=all&search=Normal${tag}`);
      await page
        .getByText(new RegExp(`Autoverified by rule set v${stored.version} \\(approved by .+\\)`))
        .first()
        .waitFor();
      await screenshot(page, `autoverify-${kind}-validation-released`);
      await page.goto(`/result-validation?search=High${tag}`);
      const reason = 'held: 150 mg/dL is high against the reference range 70-110';
      await page.getByText(reason).first().waitFor();
      await screenshot(page, `autoverify-${kind}-validation-held`);
      await page
        .getByRole('button', { name: /^Review R-\d+ \(Glucose\)$/ })
        .first()
        .click();
      const review = page.getByRole('dialog', { name: /^Review Result R-\d+$/ });
      const history = review.getByRole('region', { name: 'Autoverification decisions' });
      await history.getByText('Held for a person').waitFor();
      await history.getByText(reason).waitFor();
      await history.getByText(reason).scrollIntoViewIfNeeded();
      await screenshot(page, `autoverify-${kind}-review`);
      await review.getByRole('button', { name: 'Close' }).first().click();

      // The technician's screen says the same.
      await page.goto(`/results?search=High${tag}`);
      await page.getByText(reason).first().waitFor();
      await screenshot(page, `autoverify-${kind}-entry`);

      // The lab-wide stop: said before it is done, and the next result waits.
      await page.goto('/autoverification');
      await page.getByRole('button', { name: 'Stop for the Lab' }).click();
      const stop = page.getByRole('dialog', { name: 'Stop autoverification for the lab' });
      await stop.getByText('From the next result on, every result waits for a person').waitFor();
      await stop.getByLabel('Reason').fill('Analyser drift under investigation');
      await screenshot(page, `autoverify-${kind}-stop`);
      await stop.getByRole('button', { name: 'Stop for the Lab' }).click();
      await stop.waitFor({ state: 'hidden' });
      await page.getByText('Stopped for the lab').waitFor();
      await screenshot(page, `autoverify-${kind}-stopped`, { fullPage: true });
      const next = await analyze(await tube('Gita', `Stopped${tag}`), '90');
      expect(next.status).toBe('completed');
      await page.getByRole('button', { name: 'Resume for the Lab' }).click();
      await page
        .getByRole('dialog', { name: 'Resume autoverification' })
        .getByRole('button', { name: 'Resume' })
        .click();
      await page.getByText('Stopped for the lab').waitFor({ state: 'hidden' });
      expect((await analyze(await tube('Usha', `Resumed${tag}`), '91')).status).toBe('verified');
      await page.close();
    },
    180_000,
  );
});
