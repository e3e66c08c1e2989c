import { lazy, Suspense, useEffect, useMemo } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ErrorPanel, FullPageLoading, LoadingState } from '@/components';
import { useSession } from '@/lib/session';
import { useLab } from '@/lib/lab';
import { DEFAULT_LAB_FORMAT, LabFormatContext, setDisplayCurrency, type LabFormat } from '@/lib/format';
import { MaintenanceBanner } from './MaintenanceBanner';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import { SidebarContext, useSidebarState } from './useSidebar';
import { screenFor } from './registry';
import { RouteErrorBoundary } from './ErrorBoundary';

function AppLayout() {
  const sidebar = useSidebarState();
  const { pathname } = useLocation();
  const lab = useLab().data;
  // Dates, times and amounts on every screen follow the lab's settings (System Settings).
  const format = useMemo<LabFormat>(
    () => (lab ? { dateFormat: lab.dateFormat, timeZone: lab.timezone, hour12: false } : DEFAULT_LAB_FORMAT),
    [lab],
  );
  const currency = lab?.currency ?? 'INR';
  setDisplayCurrency(currency);

  useEffect(() => {
    const title = screenFor(pathname)?.title;
    document.title = title ? `${title} · lims` : 'lims';
  }, [pathname]);

  return (
    <LabFormatContext.Provider value={format}>
      <SidebarContext.Provider value={sidebar}>
        <div className="flex min-h-screen">
          <a
            href="#main"
            className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow"
          >
            Skip to content
          </a>
          <Sidebar />
          <div className="flex min-w-0 flex-1 flex-col">
            <TopBar />
            {lab?.maintenanceMode && <MaintenanceBanner />}
            <main key={currency} id="main" className="mx-auto w-full max-w-[1600px] flex-1 p-4 sm:p-6">
              <RouteErrorBoundary resetKey={pathname}>
                <Suspense fallback={<LoadingState />}>
                  <Outlet />
                </Suspense>
              </RouteErrorBoundary>
            </main>
          </div>
        </div>
      </SidebarContext.Provider>
    </LabFormatContext.Provider>
  );
}

/**
 * Every protected route (spec 2.1): "Loading..." while the session is checked; the sign-in form
 * in place of the page when nobody is signed in (the address stays, so the page appears after
 * sign-in); otherwise the page beside the sidebar.
 */
/** Loaded only when nobody is signed in: the form library stays out of the first download. */
const LoginScreen = lazy(() => import('@/features/auth/LoginScreen').then((m) => ({ default: m.LoginScreen })));

export function ProtectedLayout() {
  const session = useSession();
  if (session.isPending) return <FullPageLoading />;
  if (session.isError && session.data === undefined) {
    return (
      <div className="mx-auto max-w-xl p-6">
        <ErrorPanel title="Cannot Reach the Server" query={session} />
      </div>
    );
  }
  if (!session.data)
    return (
      <Suspense fallback={<FullPageLoading />}>
        <LoginScreen />
      </Suspense>
    );
  return <AppLayout />;
}
