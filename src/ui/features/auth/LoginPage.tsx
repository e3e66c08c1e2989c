import { Navigate, useLocation, useNavigate } from 'react-router';
import { FullPageLoading } from '@/app/ProtectedLayout';
import { useSession } from '@/lib/session';
import { LoginScreen } from './LoginScreen';

/** /login: already signed in goes to /home; after sign-in, to the page that sent us here, else /home. */
export default function LoginPage() {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  if (session.isPending) return <FullPageLoading />;
  if (session.data) return <Navigate to={from ?? '/home'} replace />;
  return <LoginScreen onSignedIn={() => void navigate(from ?? '/home', { replace: true })} />;
}
