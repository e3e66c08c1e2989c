import type { QcRun } from '@shared/schemas/qc';
import { Badge, type BadgeTone } from '@/components';
import { RUN_STATUS_LABEL } from '../qcText';

/** Green passed, amber warning (1-2s), red rejected: the app's one colour per meaning. */
const TONE: Record<QcRun['status'], BadgeTone> = { passed: 'green', warning: 'amber', failed: 'red' };

export function RunBadge({ status }: { status: QcRun['status'] }) {
  return <Badge tone={TONE[status]}>{RUN_STATUS_LABEL[status]}</Badge>;
}
