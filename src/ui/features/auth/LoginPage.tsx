import { Navigate, useLocation } from 'react-router';
import { FullPageLoading } from '@/components';
import { useSession } from '@/lib/session';
import { LoginScreen } from './LoginScreen';

/**
 * /login. Once a session exists (already signed in, or just now through the form) it moves on to
 * the page that sent the visitor here (location.state.from), else /home.
 */
export default function LoginPage() {
  const session = useSession();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  if (session.isPending) return <FullPageLoading />;
  if (session.data) return <Navigate to={from ?? '/home'} replace />;
  return <LoginScreen />;
}
