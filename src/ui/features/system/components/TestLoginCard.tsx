import { useState, type FormEvent } from 'react';
import { LogIn, LogOut } from 'lucide-react';
import { Button, Card, CardBody, CardHeader, FormField, Input } from '@/components';
import { errorMessage } from '@/lib/api';
import { notify } from '@/lib/notify';
import { useSession } from '@/lib/session';
import { useLoginMutation, useLogoutMutation } from '@/lib/auth';

/**
 * Test Login / Logout (spec 2.18) with an account the user types: there is no built-in test
 * account, and the real sign-in endpoint is used, so a wrong password fails here as anywhere.
 */
export function TestLoginCard() {
  const session = useSession();
  const login = useLoginMutation();
  const logout = useLogoutMutation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signedIn = Boolean(session.data);

  const onLogin = (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim() || !password) {
      notify.error('Login failed: Please enter both email and password');
      return;
    }
    login.mutate(
      { email: email.trim(), password },
      {
        onSuccess: () => {
          setPassword('');
          notify.success('Login successful!');
        },
        onError: (err) => notify.error(`Login failed: ${errorMessage(err)}`),
      },
    );
  };

  const onLogout = () =>
    logout.mutate(undefined, {
      onSuccess: () => notify.success('Logout successful!'),
      onError: (err) => notify.error(`Logout failed: ${errorMessage(err)}`),
    });

  return (
    <Card>
      <CardHeader
        title="Test Login and Logout"
        description="Uses the real sign-in and sign-out endpoints with the account you enter."
      />
      <CardBody>
        <form onSubmit={onLogin} noValidate className="grid gap-3" aria-label="Test login">
          <FormField label="Email">
            <Input type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
          </FormField>
          <FormField label="Password">
            <Input
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </FormField>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" loading={login.isPending} loadingText="Signing in...">
              <LogIn />
              Test Login
            </Button>
            <Button
              variant="outline"
              onClick={onLogout}
              disabled={!signedIn}
              loading={logout.isPending}
              loadingText="Signing out..."
            >
              <LogOut />
              Logout
            </Button>
          </div>
          {!signedIn && <p className="text-[13px] text-slate-600">Logout is available once signed in.</p>}
        </form>
      </CardBody>
    </Card>
  );
}
