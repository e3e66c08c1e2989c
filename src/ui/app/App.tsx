import { Suspense, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { useSetupStatus } from '@/lib/session';
import { NotFoundPage } from './NotFoundPage';
import { FullPageLoading, ProtectedLayout } from './ProtectedLayout';
import { PROTECTED_PATHS, PUBLIC_PATHS, ROUTES } from './routes';

/** A lab that is not set up yet (empty data dir) opens on the setup wizard, whatever the address. */
function SetupGate({ children }: { children: ReactNode }) {
  const status = useSetupStatus();
  const { pathname } = useLocation();
  if (status.isPending) return <FullPageLoading />;
  if (status.data?.needs_setup && pathname !== '/setup-wizard') return <Navigate to="/setup-wizard" replace />;
  // If the status call failed the server is unreachable; the pages show that error themselves.
  return children;
}

export function App() {
  return (
    <BrowserRouter>
      <SetupGate>
        <Routes>
          {PUBLIC_PATHS.map((path) => {
            const Page = ROUTES[path];
            return (
              <Route
                key={path}
                path={path}
                element={
                  <Suspense fallback={<FullPageLoading />}>
                    <Page />
                  </Suspense>
                }
              />
            );
          })}
          <Route element={<ProtectedLayout />}>
            {PROTECTED_PATHS.map((path) => {
              const Page = ROUTES[path];
              return <Route key={path} path={path} element={<Page />} />;
            })}
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </SetupGate>
    </BrowserRouter>
  );
}
