import { useEffect, useRef } from 'react';
import { NavLink, useLocation } from 'react-router';
import { FlaskConical } from 'lucide-react';
import { Tooltip } from '@/components';
import { cn } from '@/lib/cn';
import { useCurrentUser, useMyLab } from '@/lib/session';
import { visibleNavGroups } from './registry';

export function Brand({ compact }: { compact: boolean }) {
  const lab = useMyLab().data ?? null;
  return (
    <div
      className={cn(
        'flex h-14 shrink-0 items-center gap-2 border-b border-slate-200',
        compact ? 'justify-center px-0' : 'px-4',
      )}
    >
      <span className="flex size-7 items-center justify-center rounded-md bg-primary-600 text-white" aria-hidden="true">
        <FlaskConical className="size-4" />
      </span>
      {!compact && (
        <div className="min-w-0 leading-tight">
          <p className="truncate font-semibold text-slate-900" title={lab ?? undefined} data-testid="sidebar-lab-name">
            {lab ?? 'lims'}
          </p>
          <p className="text-xs text-slate-600">{lab ? 'lims · Laboratory management' : 'Laboratory management'}</p>
        </div>
      )}
    </div>
  );
}

/** aria-labelledby takes a space-separated id list, so ids must not contain spaces. */
const groupId = (label: string) => `nav-${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/** The menu itself: groups and items per spec 2.7; the current route is highlighted (aria-current). */
export function NavList({ compact }: { compact: boolean }) {
  const ref = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const { permissions } = useCurrentUser();
  // Long menu: keep the current item in view (e.g. /audit near the bottom after a reload).
  useEffect(() => {
    ref.current?.querySelector('[aria-current="page"]')?.scrollIntoView({ block: 'nearest' });
  }, [pathname]);
  return (
    <nav ref={ref} aria-label="Main" className="flex-1 overflow-y-auto py-2">
      {visibleNavGroups(permissions).map((group, i) => (
        <div
          key={group.label}
          role="group"
          aria-labelledby={groupId(group.label)}
          // Collapsed, the group names are hidden: a hairline keeps the groups apart.
          className={cn('mb-2', compact && i > 0 && 'mx-1.5 border-t border-slate-200 pt-2')}
        >
          <p
            id={groupId(group.label)}
            className={cn(
              'px-4 pt-2 pb-1 text-[11px] font-semibold tracking-wider text-slate-500 uppercase',
              compact && 'sr-only',
            )}
          >
            {group.label}
          </p>
          <ul className={cn('grid gap-0.5', compact ? (i > 0 ? 'px-0' : 'px-1.5') : 'px-2')}>
            {group.items.map((item) => {
              const Icon = item.icon;
              return (
                <li key={item.path}>
                  <Tooltip content={item.label} side="right" enabled={compact}>
                    <NavLink
                      to={item.path}
                      end
                      aria-label={compact ? item.label : undefined}
                      className={({ isActive }) =>
                        cn(
                          'flex h-8 items-center gap-2.5 rounded-md text-[13px] text-slate-700 transition-colors hover:bg-slate-100 hover:text-slate-900',
                          compact ? 'justify-center px-0' : 'px-2.5',
                          isActive &&
                            'bg-primary-50 font-semibold text-primary-800 hover:bg-primary-100 hover:text-primary-800',
                        )
                      }
                    >
                      <Icon className="size-4 shrink-0" aria-hidden="true" />
                      {!compact && <span className="truncate">{item.label}</span>}
                    </NavLink>
                  </Tooltip>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}
