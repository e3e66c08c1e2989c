import { lazy, Suspense, useEffect } from 'react';
import { useLocation } from 'react-router';
import { cn } from '@/lib/cn';
import { Brand, NavList } from './Nav';
import { UserBadgePlaceholder } from './UserBadge';
import { useSidebar } from './useSidebar';

// The account menu and the phone drawer bring the menu and dialog libraries: they load after the
// first screen, not with it (the first JavaScript stays under 150 kB gzip).
const UserMenu = lazy(() => import('./UserMenu').then((m) => ({ default: m.UserMenu })));
const MobileDrawer = lazy(() => import('./MobileDrawer').then((m) => ({ default: m.MobileDrawer })));

/** Desktop: a fixed column, 16rem or 3rem. Phones: an 18rem drawer over the page. */
export function Sidebar() {
  const { open, isMobile, mobileOpen, setMobileOpen } = useSidebar();
  const location = useLocation();

  // The drawer closes when the user navigates.
  useEffect(() => {
    setMobileOpen(false);
  }, [location.pathname, setMobileOpen]);

  if (isMobile) {
    // Nothing to draw until the drawer is first opened; then its code (and the dialog library) loads.
    if (!mobileOpen) return null;
    return (
      <Suspense fallback={null}>
        <MobileDrawer open={mobileOpen} onOpenChange={setMobileOpen} />
      </Suspense>
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
      <Suspense fallback={<UserBadgePlaceholder compact={compact} />}>
        <UserMenu compact={compact} />
      </Suspense>
    </aside>
  );
}
