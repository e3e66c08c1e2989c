import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Button } from '@/components';

/** The patient or doctor chosen for a bill, in place of its picker, with the button to choose again. */
export function ChosenCard({
  icon: Icon,
  changeLabel,
  onChange,
  children,
}: {
  icon: LucideIcon;
  changeLabel: string;
  onChange: () => void;
  children: ReactNode;
}) {
  return (
    <div
      className="flex flex-wrap items-start gap-3 rounded-md border border-slate-200 bg-slate-50 p-3"
      aria-live="polite"
    >
      <Icon className="mt-0.5 size-5 shrink-0 text-primary-600" aria-hidden="true" />
      <div className="min-w-0 flex-1 text-sm">{children}</div>
      <Button size="sm" variant="outline" onClick={onChange}>
        {changeLabel}
      </Button>
    </div>
  );
}
