import { Suspense, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { FullPageLoading, RequirePermission } from '@/components';
import { useSetupStatus } from '@/lib/session';
import { ScreenContext, ScreensContext, type ScreenDef } from '@/lib/screens';
import { NotFoundPage } from './NotFoundPage';
import { ProtectedLayout } from './ProtectedLayout';
import { SCREENS } from './registry';

/** A lab that is not set up yet (empty data dir) opens on the setup wizard, whatever the address. */
function SetupGate({ children }: { children: ReactNode }) {
  const status = useSetupStatus();
  const { pathname } = useLocation();
  if (status.isPending) return <FullPageLoading />;
  if (status.data?.needs_setup && pathname !== '/setup-wizard') return <Navigate to="/setup-wizard" replace />;
  // If the status call failed the server is unreachable; the pages show that error themselves.
  return children;
}

/** A screen's page with its title in context; the permission check when the screen declares one. */
function ScreenElement({ screen }: { screen: ScreenDef }) {
  const Page = screen.page;
  const body = <Page />;
  return (
    <ScreenContext.Provider value={screen}>
      {screen.permission ? (
        <RequirePermission permission={screen.permission} what={screen.what ?? screen.title} title={screen.title}>
          {body}
        </RequirePermission>
      ) : (
        body
      )}
    </ScreenContext.Provider>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <ScreensContext.Provider value={SCREENS}>
        <SetupGate>
          <Routes>
            {SCREENS.filter((s) => s.access === 'public').map((screen) => (
              <Route
                key={screen.path}
                path={screen.path}
                element={
                  <Suspense fallback={<FullPageLoading />}>
                    <ScreenElement screen={screen} />
                  </Suspense>
                }
              />
            ))}
            <Route element={<ProtectedLayout />}>
              {SCREENS.filter((s) => s.access === 'protected').map((screen) => (
                <Route key={screen.path} path={screen.path} element={<ScreenElement screen={screen} />} />
              ))}
            </Route>
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </SetupGate>
      </ScreensContext.Provider>
    </BrowserRouter>
  );
}
