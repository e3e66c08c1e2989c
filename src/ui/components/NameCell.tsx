import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

export interface NameCellProps {
  /** The row's name: the line the eye looks for. */
  name: ReactNode;
  /** The smaller line under it (code, kind, contact); left out when empty. */
  detail?: ReactNode;
  /** A line only phones show: what the columns hidden there would have said. */
  phoneDetail?: ReactNode;
  /** Extra classes for the name line (whitespace-nowrap, break-words, font-mono...). */
  nameClassName?: string;
  /** More lines under the detail (badges shown on phones...). */
  children?: ReactNode;
}

/**
 * The first cell of a list row: the name over a smaller grey detail line, and on a phone what the
 * hidden columns hold. One look for every list, so a name reads the same on every screen.
 */
export function NameCell({ name, detail, phoneDetail, nameClassName, children }: NameCellProps) {
  return (
    <div className="min-w-0">
      <span className={cn('block font-medium text-slate-900', nameClassName)}>{name}</span>
      {detail ? <span className="block text-[13px] text-slate-600">{detail}</span> : null}
      {phoneDetail ? <span className="block text-[13px] text-slate-600 md:hidden">{phoneDetail}</span> : null}
      {children}
    </div>
  );
}
