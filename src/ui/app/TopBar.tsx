import { useLocation } from 'react-router';
import { PanelLeft } from 'lucide-react';
import { Button, Tooltip } from '@/components';
import { NotificationBell } from '@/features/notifications/components/NotificationBell';
import { groupOf, screenFor } from './registry';
import { useSidebar } from './useSidebar';

/** The bar above every signed-in page: sidebar toggle, "Group / Screen" and the notification bell. */
export function TopBar() {
  const { toggle, open, mobileOpen, isMobile } = useSidebar();
  const { pathname } = useLocation();
  const title = screenFor(pathname)?.title;
  const group = groupOf(pathname);
  const expanded = isMobile ? mobileOpen : open;
  return (
    <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center gap-2 border-b border-slate-200 bg-white/95 px-3 backdrop-blur sm:px-4">
      <Tooltip content={`Toggle sidebar (${navigator.platform.startsWith('Mac') ? '⌘' : 'Ctrl'}+B)`}>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="Toggle sidebar"
          aria-controls={isMobile ? undefined : 'app-sidebar'}
          aria-expanded={expanded}
          onClick={toggle}
        >
          <PanelLeft />
        </Button>
      </Tooltip>
      <span className="h-5 w-px bg-slate-200" aria-hidden="true" />
      <nav aria-label="Breadcrumb" className="min-w-0 text-[13px]">
        <ol className="flex min-w-0 items-center gap-1.5">
          {group && (
            <li className="hidden truncate text-slate-600 sm:block">
              {group}
              <span className="ml-1.5 text-slate-400" aria-hidden="true">
                /
              </span>
            </li>
          )}
          <li className="truncate font-medium text-slate-900" aria-current="page">
            {title ?? 'lims'}
          </li>
        </ol>
      </nav>
      <div className="ml-auto flex shrink-0 items-center">
        <NotificationBell />
      </div>
    </header>
  );
}
