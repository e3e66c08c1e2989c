import { useState } from 'react';
import type { TwoFactorChallenge } from '@shared/schemas/two-factor';
import { SignedOutCard } from '@/components';
import { useSignInLab } from '@/lib/session';
import { LoginForm } from './LoginForm';
import { TwoFactorCodeStep, TwoFactorEnrolStep } from './TwoFactorSteps';

const HEADINGS = {
  password: { title: 'Sign In', text: 'Sign in with your lab staff account.' },
  verify: { title: 'Two-factor sign-in', text: 'One more step: the code from your phone.' },
  enrol: { title: 'Set up two-factor sign-in', text: 'A code from your phone, as well as your password.' },
};

/**
 * The sign-in page body. Protected routes render it in place of the page (the address stays);
 * /login renders it and moves on once the session exists. A user with two-factor sign-in goes on
 * from the password to the code (or, when the lab requires it and they have none, to the set-up).
 */
export function LoginScreen() {
  const [pending, setPending] = useState<{ challenge: TwoFactorChallenge; email: string } | null>(null);
  const step = pending?.challenge.step ?? 'password';
  const heading = HEADINGS[step];
  const restart = () => setPending(null);
  return (
    <SignedOutCard title={heading.title} name={<LabName />} wide={step === 'enrol'}>
      <p className="mt-1 mb-5 text-slate-600">{heading.text}</p>
      {pending === null ? (
        <LoginForm onChallenge={(challenge, email) => setPending({ challenge, email })} />
      ) : pending.challenge.step === 'verify' ? (
        <TwoFactorCodeStep challenge={pending.challenge} email={pending.email} onRestart={restart} />
      ) : (
        <TwoFactorEnrolStep challenge={pending.challenge} email={pending.email} onRestart={restart} />
      )}
    </SignedOutCard>
  );
}

/**
 * Whose system this is: the lab's name, with lims under it; just lims until it loads, before setup,
 * and where the page asks which lab (the address serves several).
 */
function LabName() {
  const lab = useSignInLab().data;
  const name = lab && !lab.ask_lab ? lab.name : null;
  if (!name) return <span className="text-lg font-semibold text-slate-900">lims</span>;
  return (
    <span className="grid leading-tight">
      <span className="text-lg font-semibold text-slate-900" data-testid="lab-name">
        {name}
      </span>
      <span className="text-xs text-slate-600">lims · Laboratory management</span>
    </span>
  );
}
