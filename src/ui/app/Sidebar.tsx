import { useEffect, useRef } from 'react';
import { NavLink, useLocation } from 'react-router';
import { Dialog } from 'radix-ui';
import { FlaskConical, X } from 'lucide-react';
import { Button, Tooltip } from '@/components';
import { cn } from '@/lib/cn';
import { NAV_GROUPS } from './registry';
import { UserMenu } from './UserMenu';
import { useSidebar } from './useSidebar';

function Brand({ compact }: { compact: boolean }) {
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
        <div className="leading-tight">
          <p className="font-semibold text-slate-900">lims</p>
          <p className="text-xs text-slate-600">Laboratory management</p>
        </div>
      )}
    </div>
  );
}

/** aria-labelledby takes a space-separated id list, so ids must not contain spaces. */
const groupId = (label: string) => `nav-${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/** The menu itself: groups and items per spec 2.7; the current route is highlighted (aria-current). */
function NavList({ compact }: { compact: boolean }) {
  const ref = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  // Long menu: keep the current item in view (e.g. /audit near the bottom after a reload).
  useEffect(() => {
    ref.current?.querySelector('[aria-current="page"]')?.scrollIntoView({ block: 'nearest' });
  }, [pathname]);
  return (
    <nav ref={ref} aria-label="Main" className="flex-1 overflow-y-auto py-2">
      {NAV_GROUPS.map((group, i) => (
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

/** Desktop: a fixed column, 16rem or 3rem. Phones: an 18rem drawer over the page. */
export function Sidebar() {
  const { open, isMobile, mobileOpen, setMobileOpen } = useSidebar();
  const location = useLocation();

  // The drawer closes when the user navigates.
  useEffect(() => {
    setMobileOpen(false);
  }, [location.pathname, setMobileOpen]);

  if (isMobile) {
    return (
      <Dialog.Root open={mobileOpen} onOpenChange={setMobileOpen}>
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
          <Dialog.Content
            id="app-sidebar"
            data-testid="sidebar"
            data-state-sidebar="drawer"
            aria-describedby={undefined}
            className="fixed inset-y-0 left-0 z-50 flex w-[var(--width-sidebar-mobile)] max-w-[85vw] flex-col bg-white shadow-xl focus:outline-none"
          >
            <Dialog.Title className="sr-only">Navigation</Dialog.Title>
            <div className="relative">
              <Brand compact={false} />
              <Dialog.Close asChild>
                <Button variant="ghost" size="icon-sm" aria-label="Close navigation" className="absolute top-3 right-2">
                  <X />
                </Button>
              </Dialog.Close>
            </div>
            <NavList compact={false} />
            <UserMenu compact={false} />
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    );
  }

  const compact = !open;
  return (
    <aside
      id="app-sidebar"
      data-testid="sidebar"
      data-state-sidebar={open ? 'expanded' : 'collapsed'}
      aria-label="Sidebar"
      className={cn(
        'sticky top-0 flex h-screen shrink-0 flex-col border-r border-slate-200 bg-white transition-[width] duration-150',
        open ? 'w-[var(--width-sidebar)]' : 'w-[var(--width-sidebar-collapsed)]',
      )}
    >
      <Brand compact={compact} />
      <NavList compact={compact} />
      <UserMenu compact={compact} />
    </aside>
  );
}
