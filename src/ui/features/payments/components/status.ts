import type { LedgerStatus } from '@shared/schemas/payments';
import type { BadgeTone } from '@/components';

export const STATUS_TONE: Record<LedgerStatus, BadgeTone> = {
  completed: 'green',
  pending: 'amber',
  failed: 'red',
  refunded: 'grey',
};
