import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Eye, EyeOff, LogIn } from 'lucide-react';
import { loginSchema, type DemoCredential } from '@shared/schemas/auth';
import type { TwoFactorChallenge } from '@shared/schemas/two-factor';
import { ROLE_LABELS, ROLES, type Role } from '@shared/roles';
import { Button, FormField, Input } from '@/components';
import { notify } from '@/lib/notify';
import { useDemoCredentials, useLoginMutation } from '@/lib/auth';
import { useSignInLab } from '@/lib/session';

type LoginForm = z.input<typeof loginSchema>;

function roleLabel(role: string): string {
  return (ROLES as readonly string[]).includes(role) ? ROLE_LABELS[role as Role] : role;
}

/** The demo accounts box: only when the server runs with --demo (GET /api/auth/demo-credentials). */
function DemoCredentials({ onPick }: { onPick: (c: DemoCredential) => void }) {
  const demo = useDemoCredentials();
  if (!demo.data?.demo || demo.data.credentials.length === 0) return null;
  return (
    <section aria-labelledby="demo-creds" className="mt-6 rounded-md border border-blue-200 bg-blue-50 p-3">
      <h2 id="demo-creds" className="text-[13px] font-semibold text-blue-900">
        Test Credentials
      </h2>
      <p className="mt-0.5 text-xs text-blue-900">
        This is a demo lab. Each account has role-based access: it sees and does what its role allows. Click a row to
        fill the form.
      </p>
      <ul className="mt-2 grid max-h-56 gap-1 overflow-y-auto">
        {demo.data.credentials.map((c) => (
          <li key={c.email}>
            <button
              type="button"
              onClick={() => onPick(c)}
              className="grid w-full grid-cols-[6.5rem_minmax(0,1fr)_auto] items-baseline gap-x-2 rounded px-2 py-1 text-left text-xs text-slate-800 hover:bg-blue-100"
            >
              <span className="font-medium">{roleLabel(c.role)}</span>
              <span className="truncate">{c.email}</span>
              <span className="font-mono text-slate-700">{c.password}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Email + password sign-in (spec 2.4). Success sets the session; the shell shows what comes next.
 * A user with two-factor sign-in gets a challenge instead, and the screen asks for the code.
 * On a server of several labs opened at an address that names none (its IP address), it also asks
 * for the lab: its address, as the lab's administrator gave it; empty is the server's first lab.
 */
export function LoginForm({ onChallenge }: { onChallenge: (challenge: TwoFactorChallenge, email: string) => void }) {
  const login = useLoginMutation();
  const [showPassword, setShowPassword] = useState(false);
  const page = useSignInLab().data;
  const form = useForm<LoginForm, unknown, z.output<typeof loginSchema>>({
    resolver: zodResolver(loginSchema),
    defaultValues: { lab: '', email: '', password: '' },
    mode: 'onBlur',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(
    (values) => {
      login.mutate(values, {
        onSuccess: ({ two_factor }) => {
          if (two_factor) onChallenge(two_factor, values.email);
        },
      });
    },
    () => notify.error('Validation Error', 'Please enter both email and password'),
  );

  return (
    <>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4" aria-label="Sign in">
        {page?.ask_lab && (
          <FormField
            label="Lab"
            error={errors.lab?.message}
            hint={
              page.name
                ? `Your lab's address, such as lab2.example.com. Leave empty for ${page.name}.`
                : "Your lab's address, such as lab2.example.com."
            }
          >
            <Input
              type="text"
              autoComplete="on"
              autoCapitalize="none"
              spellCheck={false}
              placeholder="yourlab.example.com"
              {...form.register('lab')}
            />
          </FormField>
        )}
        <FormField label="Email" error={errors.email?.message} required>
          <Input
            type="email"
            autoComplete="username"
            placeholder="you@yourlab.in"
            required
            {...form.register('email')}
          />
        </FormField>
        <FormField label="Password" error={errors.password?.message} required>
          {(control) => (
            <div className="relative">
              <Input
                type={showPassword ? 'text' : 'password'}
                autoComplete="current-password"
                required
                className="pr-10"
                {...control}
                {...form.register('password')}
              />
              <button
                type="button"
                onClick={() => setShowPassword((s) => !s)}
                aria-label={showPassword ? 'Hide password' : 'Show password'}
                aria-pressed={showPassword}
                className="absolute top-1/2 right-1 flex size-7 -translate-y-1/2 items-center justify-center rounded text-slate-600 hover:bg-slate-100"
              >
                {showPassword ? <EyeOff className="size-4" /> : <Eye className="size-4" />}
              </button>
            </div>
          )}
        </FormField>
        <Button type="submit" size="lg" loading={login.isPending} loadingText="Signing in..." className="w-full">
          <LogIn />
          Sign In
        </Button>
      </form>
      <DemoCredentials
        onPick={(c) => {
          form.setValue('email', c.email, { shouldValidate: true });
          form.setValue('password', c.password, { shouldValidate: true });
        }}
      />
    </>
  );
}
