import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '@/lib/queryClient';
import { ToastHost } from '@/lib/notify';
import { RouteErrorBoundary } from '@/app/ErrorBoundary';
import { App } from '@/app/App';
import { SCREENS } from '@/app/registry';
import { warmUp } from '@/app/warmUp';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

warmUp(queryClient, SCREENS, window.location.pathname);

createRoot(root).render(
  <StrictMode>
    <RouteErrorBoundary fullPage>
      <QueryClientProvider client={queryClient}>
        <App />
        <ToastHost />
      </QueryClientProvider>
    </RouteErrorBoundary>
  </StrictMode>,
);
