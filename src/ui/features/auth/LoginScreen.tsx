import { FlaskConical } from 'lucide-react';
import { LoginForm } from './LoginForm';

/**
 * The sign-in page body. Protected routes render it in place of the page (the address stays);
 * /login renders it and moves on once the session exists.
 */
export function LoginScreen() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 p-4">
      <div className="w-full max-w-md">
        <div className="mb-5 flex items-center justify-center gap-2">
          <span
            className="flex size-9 items-center justify-center rounded-lg bg-primary-600 text-white"
            aria-hidden="true"
          >
            <FlaskConical className="size-5" />
          </span>
          <span className="text-lg font-semibold text-slate-900">lims</span>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="text-xl font-semibold text-slate-900">Sign In</h1>
          <p className="mt-1 mb-5 text-slate-600">Sign in with your lab staff account.</p>
          <LoginForm />
        </div>
      </div>
    </main>
  );
}
