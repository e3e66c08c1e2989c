import type { TestLab } from '../helpers.js';

/** Registers the lab for GST in Karnataka (an address and a GSTIN), and gives a way to add its tests. */
export async function registerForGst(lab: TestLab) {
  const a = lab.admin;
  await a.put('/api/settings', { labAddress: '12 MG Road, Bengaluru, Karnataka 560001' });
  await a.put('/api/billing-settings', { gstin: '29AABCL1234M1Z5' });
  return async (body: object) => (await a.post('/api/tests', body)).json<{ test: { id: number } }>().test.id;
}
