import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useForm, type Path, type Resolver } from 'react-hook-form';
import { Check, CheckCircle2, ChevronLeft, ChevronRight, FlaskConical, LogIn } from 'lucide-react';
import { setupSchema } from '@shared/schemas/setup';
import { Button, Card, ErrorPanel, LinkButton, LoadingState } from '@/components';
import { useScreen } from '@/lib/screens';
import { ApiError } from '@/lib/api';
import { notify } from '@/lib/notify';
import { useSetupStatus } from '@/lib/session';
import { cn } from '@/lib/cn';
import { call } from '@/lib/api';
import { setupApi } from '@shared/api/setup';
import { useDatabaseCheck, useSetupMutation } from '../api';
import { postgresOf, STEPS, stepErrors, stepOf, WIZARD_DEFAULTS, type WizardValues } from '../steps';
import {
  AdminStep,
  DatabaseStep,
  LabStep,
  RegionalStep,
  SampleDataStep,
  type ConnectionCheck,
} from '../components/StepFields';

const DATABASE_STEP = 2;

/** After a PostgreSQL setup the server moves onto that database: wait until it answers from there. */
async function waitForLab(timeoutMs = 30_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if (!(await call(setupApi.status, {})).needs_setup) return true;
    } catch {
      // The server is between databases for a moment: ask again.
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

interface StepContext {
  step: number;
}

const stepResolver: Resolver<WizardValues, StepContext> = (values, context) => {
  const errors = stepErrors(context?.step ?? 0, values);
  return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
};

function Shell({ children }: { children: ReactNode }) {
  const screen = useScreen();
  return (
    <main className="mx-auto w-full max-w-3xl px-4 py-8 sm:py-12">
      <div className="mb-6 flex items-center gap-3">
        <span className="flex size-10 items-center justify-center rounded-lg bg-primary-600 text-white">
          <FlaskConical className="size-5" aria-hidden="true" />
        </span>
        <div>
          <h1 className="text-xl font-semibold tracking-tight text-slate-900 sm:text-2xl">{screen.title}</h1>
          <p className="text-slate-600">{screen.subtitle}</p>
        </div>
      </div>
      {children}
    </main>
  );
}

function StepList({ step }: { step: number }) {
  return (
    <ol className="mb-5 grid grid-cols-5 gap-1.5" aria-label="Setup steps">
      {STEPS.map((s, i) => (
        <li key={s.title} aria-current={i === step ? 'step' : undefined} title={s.title} className="min-w-0">
          <div className={cn('h-1.5 rounded-full', i <= step ? 'bg-primary-600' : 'bg-slate-200')} />
          <p
            className={cn(
              'mt-1.5 hidden truncate text-xs sm:block',
              i === step ? 'font-semibold text-slate-900' : 'text-slate-600',
            )}
          >
            {i < step && <Check className="mr-0.5 inline size-3 text-primary-700" aria-hidden="true" />}
            {s.title}
          </p>
        </li>
      ))}
    </ol>
  );
}

/**
 * The web setup wizard (spec: five steps, Next/Previous, Previous disabled on step 1). Unlike the
 * spec's mock-up it checks every step (password rules, matching confirmation) and really sets up
 * the lab through POST /api/setup. Once a lab exists it shows that instead of a form.
 */
export default function SetupWizardPage() {
  const status = useSetupStatus();
  const setup = useSetupMutation();
  // PostgreSQL can be chosen when the server runs on its SQLite default (else it is already PostgreSQL).
  const postgresChoosable = status.data?.database?.type === 'SQLite';
  const [step, setStep] = useState(0);
  const [done, setDone] = useState<{ labName: string; adminEmail: string } | null>(null);
  const [moving, setMoving] = useState(false);
  const databaseCheck = useDatabaseCheck();
  const [check, setCheck] = useState<(ConnectionCheck & { key: string }) | null>(null);
  // react-hook-form hands `context` (the current step) to the resolver, so blur, change and Next checks
  // all judge only the step on screen.
  const form = useForm<WizardValues, StepContext>({
    resolver: stepResolver,
    context: { step },
    defaultValues: WIZARD_DEFAULTS,
    mode: 'onBlur',
  });
  const headingRef = useRef<HTMLHeadingElement>(null);

  const shownStep = useRef(0);
  useEffect(() => {
    // After Next/Previous, focus the new step's heading so keyboard and screen-reader users follow along.
    if (shownStep.current !== step) {
      shownStep.current = step;
      headingRef.current?.focus();
    }
  }, [step]);

  const goTo = setStep;

  // Next goes through handleSubmit too: after a first failed try, fields re-check as the user types,
  // so an error vanishes while typing rather than on the click (which would move the button under the mouse).
  const connectionKey = (v: WizardValues) => JSON.stringify(postgresOf(v));
  const testConnection = async (values: WizardValues): Promise<boolean> => {
    const key = connectionKey(values);
    try {
      const result = await databaseCheck.mutateAsync(postgresOf(values));
      setCheck({ ...result, key });
      return result.ok;
    } catch (err) {
      setCheck({ ok: false, message: err instanceof Error ? err.message : String(err), key });
      return false;
    }
  };
  const onTest = () => void form.handleSubmit((values) => void testConnection(values))();

  const onValid = async (values: WizardValues) => {
    if (step === DATABASE_STEP && values.databaseType === 'postgresql' && postgresChoosable) {
      // Next needs a connection that works, tested with exactly these values.
      if (!(check?.ok && check.key === connectionKey(values)) && !(await testConnection(values))) return;
    }
    if (step < STEPS.length - 1) goTo(step + 1);
    else complete(values);
  };

  const complete = (values: WizardValues) => {
    const database = postgresChoosable && values.databaseType === 'postgresql' ? postgresOf(values) : undefined;
    const parsed = setupSchema.safeParse({ ...values, database });
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const field = String(first?.path[0] ?? '');
      goTo(stepOf(field));
      if (field in WIZARD_DEFAULTS)
        form.setError(field as Path<WizardValues>, { message: first?.message ?? 'Invalid value' });
      return;
    }
    setup.mutate(parsed.data, {
      onSuccess: async () => {
        if (database) {
          setMoving(true);
          const moved = await waitForLab();
          // The status read when the setup answered came from the old database: read it again.
          await status.refetch();
          setMoving(false);
          if (!moved) {
            notify.error(
              'The server has not moved to PostgreSQL yet',
              'The lab is set up there; restart lims serve (it reads the database from its data directory).',
            );
          }
        }
        notify.success('Setup complete', `${parsed.data.labName} is ready. Sign in as ${parsed.data.adminEmail}.`);
        setDone({ labName: parsed.data.labName, adminEmail: parsed.data.adminEmail });
      },
      onError: (err) => {
        notify.error('Setup failed', err);
        if (err instanceof ApiError && err.details.some((d) => d.path === 'database')) {
          goTo(DATABASE_STEP);
          setCheck({ ok: false, message: err.message, key: '' });
        } else if (err instanceof ApiError && err.code === 'DATABASE_NOT_EMPTY') {
          goTo(DATABASE_STEP);
          setCheck({ ok: false, message: err.message, key: '' });
        } else if (err instanceof ApiError && err.details.length > 0) {
          const first = err.details[0]!;
          goTo(stepOf(first.path));
          for (const d of err.details)
            if (d.path in WIZARD_DEFAULTS) form.setError(d.path as Path<WizardValues>, { message: d.message });
        }
      },
    });
  };

  if (moving) {
    return (
      <Shell>
        <LoadingState text="Moving the server onto the PostgreSQL database..." />
      </Shell>
    );
  }
  if (done) {
    return (
      <Shell>
        <Card className="p-6 text-center sm:p-10">
          <CheckCircle2 className="mx-auto size-12 text-green-600" aria-hidden="true" />
          <h2 className="mt-3 text-lg font-semibold text-slate-900">Setup complete</h2>
          <p className="mt-1 text-slate-700">
            {done.labName} is ready. Sign in as <strong>{done.adminEmail}</strong> with the password you chose, then add
            your staff in User Management.
          </p>
          <LinkButton to="/login" size="lg" className="mt-5">
            <LogIn />
            Sign In
          </LinkButton>
        </Card>
      </Shell>
    );
  }
  if (status.isPending) {
    return (
      <Shell>
        <LoadingState text="Checking whether this lab is set up..." />
      </Shell>
    );
  }
  if (status.isError) {
    return (
      <Shell>
        <ErrorPanel title="Cannot Reach the Server" query={status} />
      </Shell>
    );
  }
  const db = status.data.database;
  if (!status.data.needs_setup) {
    return (
      <Shell>
        <Card className="p-6 text-center sm:p-10">
          <CheckCircle2 className="mx-auto size-10 text-green-600" aria-hidden="true" />
          <h2 className="mt-3 text-lg font-semibold text-slate-900">This lab is already set up</h2>
          <p className="mt-1 text-slate-700">
            Setting up again would replace nothing and is refused. Sign in with your account instead.
          </p>
          <LinkButton to="/login" className="mt-5">
            <LogIn />
            Sign In
          </LinkButton>
        </Card>
      </Shell>
    );
  }

  const current = STEPS[step]!;
  const last = step === STEPS.length - 1;
  return (
    <Shell>
      <StepList step={step} />
      <Card>
        <form
          noValidate
          aria-labelledby="setup-step-title"
          // Enter in a field moves on like Next; only the last step sets the lab up.
          onSubmit={(e) => void form.handleSubmit(onValid)(e)}
        >
          <div className="border-b border-slate-100 px-5 py-4">
            <p className="text-xs font-medium tracking-wide text-primary-700 uppercase">
              Step {step + 1} of {STEPS.length}
            </p>
            <h2
              id="setup-step-title"
              ref={headingRef}
              tabIndex={-1}
              className="mt-0.5 text-lg font-semibold text-slate-900 focus:outline-none"
            >
              {current.title}
            </h2>
            <p className="text-[13px] text-slate-600">{current.description}</p>
          </div>
          <div className="px-5 py-5">
            {step === 0 && <LabStep form={form} />}
            {step === 1 && <AdminStep form={form} />}
            {step === DATABASE_STEP && (
              <DatabaseStep form={form} server={db} check={check} checking={databaseCheck.isPending} onTest={onTest} />
            )}
            {step === 3 && <SampleDataStep form={form} />}
            {step === 4 && <RegionalStep form={form} server={db} />}
          </div>
          <div className="flex items-center justify-between gap-2 border-t border-slate-100 px-5 py-3">
            <Button variant="outline" onClick={() => goTo(step - 1)} disabled={step === 0 || setup.isPending}>
              <ChevronLeft />
              Previous
            </Button>
            {last ? (
              <Button type="submit" loading={setup.isPending} loadingText="Setting up...">
                <Check />
                Complete Setup
              </Button>
            ) : (
              <Button type="submit">
                Next
                <ChevronRight />
              </Button>
            )}
          </div>
        </form>
      </Card>
    </Shell>
  );
}
