import type { BuiltInReport } from './builtin-kit.js';
import { BUILT_IN_REPORT_IDS } from '../../shared/reports.js';
import { LAB_REPORTS } from './builtin-lab.js';
import { MONEY_REPORTS } from './builtin-money.js';

export type { Built, BuiltInReport, Cell, Row, RunContext } from './builtin-kit.js';
export { percentile } from './builtin-kit.js';

/** In the catalogue's order: the order the shared list of ids gives them. */
export const BUILT_IN_REPORTS: BuiltInReport[] = BUILT_IN_REPORT_IDS.map((id) =>
  [...LAB_REPORTS, ...MONEY_REPORTS].find((r) => r.id === id)!,
);

export const builtInReport = (id: string) => BUILT_IN_REPORTS.find((r) => r.id === id);
