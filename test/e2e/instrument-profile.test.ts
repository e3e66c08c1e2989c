import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../../src/core/interfaces/service.js';
import { connectionCreateSchema } from '../../src/shared/schemas/connections.js';
import { systemActor } from '../../src/core/context.js';
import { MOBILE, screenshot, screenshotFailures, startApp, type E2eApp } from './harness.js';

/**
 * A connection's instrument profile, changed on the connection form: the lab moves the specimen ID
 * of an ASTM analyser from the preset's O-3 to O-4, saves, and finds it kept when it opens the
 * form again; a location the API refuses is named under its own input, first as the input is left
 * (the API's schema, in the browser) and then by the server's 400 on saving; Reset to Preset puts
 * the preset back. At desktop width and on a 390 px phone.
 */

let app: E2eApp;
const watch = screenshotFailures();

beforeAll(async () => {
  app = await startApp({});
  const system = systemActor(app.organizationId!);
  // The phone's with a preset that has an ignore rule and code components of its own.
  const made = [
    ['Analyser desktop', 'standard', 6541],
    ['Analyser phone', 'abbott-architect', 6542],
  ] as const;
  for (const [name, profile, port] of made)
    await createConnection(
      app.database.db,
      system,
      connectionCreateSchema.parse({ name, protocol: 'astm', transport: 'tcp-server', port, profile }),
    );
}, 120_000);

afterAll(async () => {
  await app?.close();
});

async function storedSettings(name: string): Promise<unknown> {
  const row = await app.database.db
    .selectFrom('connections')
    .select('profile_settings')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.profile_settings === null ? null : JSON.parse(row.profile_settings);
}

describe('Machine Integration: the fields of an instrument, on the connection form', () => {
  it.each([
    ['desktop', undefined],
    ['phone', MOBILE],
  ] as const)(
    'on %s, a changed specimen location is kept and a bad one is named at its input',
    async (kind, viewport) => {
      const name = `Analyser ${kind}`;
      const page = watch(await app.signedInPage('/machines', undefined, viewport));
      const open = async () => {
        await page.getByRole('button', { name: `Edit ${name}` }).click();
        const dialog = page.getByRole('dialog', { name: `Edit Connection: ${name}` });
        await dialog.waitFor();
        return dialog;
      };

      let dialog = await open();
      const advanced = dialog.getByRole('button', { name: /Advanced: fields of this instrument/ });
      await expect(advanced.getAttribute('aria-expanded')).resolves.toBe('false');
      await advanced.click();
      const specimen = dialog.getByLabel('Specimen ID');
      // The preset's locations are what the inputs show.
      await expect(specimen.inputValue()).resolves.toBe('O-3, O-4');
      await expect(dialog.getByLabel('Value', { exact: true }).inputValue()).resolves.toBe('R-4');
      await specimen.fill('o-4, O-3');
      await specimen.blur();
      await dialog.getByText('Preset: O-3, O-4').waitFor();
      await specimen.scrollIntoViewIfNeeded();
      await screenshot(page, `instrument-profile-${kind}`);
      await dialog.getByRole('button', { name: 'Save Changes' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await storedSettings(name)).toEqual({ specimen: ['O-4', 'O-3'] });

      // Opened again: the change is there, and the disclosure says one setting differs.
      dialog = await open();
      await dialog.getByRole('button', { name: /Advanced: fields of this instrument \(1 changed\)/ }).click();
      await expect(dialog.getByLabel('Specimen ID').inputValue()).resolves.toBe('O-4, O-3');

      // Checked in the browser as the input is left, with the API's message.
      const value = dialog.getByLabel('Value', { exact: true });
      await value.fill('R4');
      await value.blur();
      await dialog.getByText('Value location must be a location such as O-3 or OBX-5.1').waitFor();
      await expect(value.getAttribute('aria-invalid')).resolves.toBe('true');
      await value.fill('R-4');
      // An HL7 segment on an ASTM line: the server's 400 lands under the specimen input.
      await dialog.getByLabel('Specimen ID').fill('PID-2');
      const answer = page.waitForResponse(
        (r) => r.url().includes('/api/connections/') && r.request().method() === 'PUT',
      );
      await dialog.getByRole('button', { name: 'Save Changes' }).click();
      expect((await answer).status()).toBe(400);
      const message = 'PID-2 is not a location of ASTM (records are one letter: O-3, R-4)';
      await dialog.getByText(message).waitFor();
      await expect(dialog.getByLabel('Specimen ID').getAttribute('aria-invalid')).resolves.toBe('true');
      await dialog.getByLabel('Specimen ID').scrollIntoViewIfNeeded();
      await screenshot(page, `instrument-profile-${kind}-error`);
      await dialog.getByRole('button', { name: 'Reset to Preset' }).scrollIntoViewIfNeeded();
      await screenshot(page, `instrument-profile-${kind}-rules`);
      expect(await storedSettings(name)).toEqual({ specimen: ['O-4', 'O-3'] });

      // Reset to Preset: the preset's locations again, and nothing of the lab's is stored.
      await dialog.getByRole('button', { name: 'Reset to Preset' }).click();
      await expect(dialog.getByLabel('Specimen ID').inputValue()).resolves.toBe('O-3, O-4');
      await expect(dialog.getByText(message).count()).resolves.toBe(0);
      await dialog.getByRole('button', { name: 'Save Changes' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await storedSettings(name)).toBeNull();
    },
  );
});
