import type { BuiltInReport } from './builtin-kit.js';
import { LAB_REPORTS } from './builtin-lab.js';
import { MONEY_REPORTS } from './builtin-money.js';

export type { Built, BuiltInReport, Cell, Row, RunContext } from './builtin-kit.js';
export { percentile } from './builtin-kit.js';

/** The catalogue's order. */
const ORDER = [
  'patient-register',
  'daily-collection',
  'revenue-by-test',
  'dues',
  'discounts',
  'workload-by-test',
  'tat-by-test',
  'rejections',
  'critical-values',
  'referrals-by-doctor',
];

export const BUILT_IN_REPORTS: BuiltInReport[] = ORDER.map((id) =>
  [...LAB_REPORTS, ...MONEY_REPORTS].find((r) => r.id === id)!,
);

export const builtInReport = (id: string) => BUILT_IN_REPORTS.find((r) => r.id === id);
