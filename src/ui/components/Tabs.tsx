import type { ReactNode } from 'react';
import { Tabs as T } from 'radix-ui';
import { cn } from '@/lib/cn';

export interface TabItem {
  value: string;
  label: ReactNode;
  /** A small count after the label ("Visits 3"). */
  count?: number;
  content: ReactNode;
}

export interface TabsProps {
  tabs: TabItem[];
  value: string;
  onValueChange: (value: string) => void;
  /** Accessible name of the tab list, e.g. "Medical history". */
  label: string;
  className?: string;
}

/** Radix tabs (arrow keys move between tabs) in the lims look; the list scrolls sideways on phones. */
export function Tabs({ tabs, value, onValueChange, label, className }: TabsProps) {
  return (
    <T.Root value={value} onValueChange={onValueChange} className={className}>
      <T.List aria-label={label} className="flex gap-1 overflow-x-auto border-b border-slate-200 px-2">
        {tabs.map((t) => (
          <T.Trigger
            key={t.value}
            value={t.value}
            className={cn(
              '-mb-px inline-flex shrink-0 items-center gap-1.5 border-b-2 border-transparent px-2.5 py-2.5 text-sm font-medium whitespace-nowrap text-slate-600 sm:px-3',
              'hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-primary-500',
              'data-[state=active]:border-primary-600 data-[state=active]:text-primary-700',
            )}
          >
            {t.label}
            {t.count !== undefined && (
              // Counts are left out on phones so every tab fits without scrolling sideways.
              <span className="hidden rounded-full bg-slate-100 px-1.5 text-xs text-slate-700 tabular-nums sm:inline">
                {t.count}
              </span>
            )}
          </T.Trigger>
        ))}
      </T.List>
      {tabs.map((t) => (
        <T.Content key={t.value} value={t.value} className="focus-visible:outline-none">
          {t.content}
        </T.Content>
      ))}
    </T.Root>
  );
}
