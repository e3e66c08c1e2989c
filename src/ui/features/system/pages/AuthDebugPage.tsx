import { useScreen } from '@/lib/screens';
import { AuthState } from '../components/AuthState';
import { PublicShell } from '../components/PublicShell';
import { TestLoginCard } from '../components/TestLoginCard';

/** Auth debug (public): the real session state, the raw /api/auth/me answer, and test sign-in/out. */
export default function AuthDebugPage() {
  const screen = useScreen();
  return (
    <PublicShell title={screen.title} subtitle={screen.subtitle}>
      <div className="grid gap-5 lg:grid-cols-[3fr_2fr]">
        <AuthState showRaw />
        <div className="min-w-0">
          <TestLoginCard />
        </div>
      </div>
    </PublicShell>
  );
}
