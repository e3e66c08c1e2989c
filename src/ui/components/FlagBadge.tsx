import { Badge, type BadgeTone } from './Badge';
import { humanize } from '@/lib/format';

const FLAG_TONES: Record<string, BadgeTone> = { normal: 'green', low: 'amber', high: 'red', abnormal: 'red' };

/** Result flags as the spec names them: Normal, Abnormal, High, Low. */
export function FlagBadge({ flag }: { flag: string | null }) {
  if (!flag) return <span className="text-slate-500">—</span>;
  return <Badge tone={FLAG_TONES[flag] ?? 'grey'}>{humanize(flag)}</Badge>;
}
