import { it } from 'vitest';
import { MOBILE, screenshot, startApp } from './harness.js';
it('dbg', async () => {
  const app = await startApp({ roles: ['lab_technician'] });
  const page = await app.newPage(MOBILE);
  page.on('console', (m) => console.log('console', m.text()));
  await page.goto('/quality');
  await page.waitForTimeout(3000);
  console.log(await page.content().then((c) => c.slice(0, 3000)));
  await screenshot(page, 'qc-dbg');
  await app.close();
}, 60000);
