import { useScreen } from '@/lib/screens';
import { AuthState } from '../components/AuthState';
import { PublicShell } from '../components/PublicShell';
import { TestLoginCard } from '../components/TestLoginCard';

/** Auth test (public): sign in and out with a real account and watch the state change. */
export default function AuthTestPage() {
  const screen = useScreen();
  return (
    <PublicShell title={screen.title} subtitle={screen.subtitle}>
      <div className="grid gap-5 lg:grid-cols-2">
        <TestLoginCard />
        <AuthState />
      </div>
    </PublicShell>
  );
}
