import { Navigate } from 'react-router';
import {
  BarChart3,
  FlaskConical,
  ReceiptIndianRupee as Receipt,
  ShieldCheck,
  TestTubes,
  Users,
  Boxes,
} from 'lucide-react';
import { LinkButton } from '@/components';
import { FullPageLoading } from '@/components';
import { useSession, useSignInLab } from '@/lib/session';

const FEATURES = [
  {
    icon: Users,
    title: 'Patient Management',
    text: 'Register patients once and find them in seconds by name, ID or phone.',
  },
  {
    icon: Receipt,
    title: 'Outpatient Billing',
    text: 'Bills with tests, profiles, packages, discounts and GST, in rupees.',
  },
  { icon: TestTubes, title: 'Sample Tracking', text: 'Barcoded samples from collection to processing to completion.' },
  {
    icon: FlaskConical,
    title: 'Results & Validation',
    text: 'Enter results, flag abnormal values and verify before release.',
  },
  { icon: Boxes, title: 'Inventory', text: 'Reagents and consumables with stock levels and expiry alerts.' },
  {
    icon: ShieldCheck,
    title: 'Roles & Audit Trail',
    text: 'Role-based access and a tamper-evident record of every change.',
  },
];

/**
 * Spec 2.3: for signed-out visitors; a signed-in user goes to /home. It names the lab whose address
 * this is. The spec's marketing figures (1300+ tests, 50+ packages) are not shown: they were not the
 * lab's, and a lab's own counts are not for anyone who opens its address.
 */
export default function LandingPage() {
  const session = useSession();
  const lab = useSignInLab().data?.name ?? null;
  if (session.isPending) return <FullPageLoading />;
  if (session.data) return <Navigate to="/home" replace />;
  return (
    <div className="min-h-screen bg-white">
      <header className="border-b border-slate-200">
        <div className="mx-auto flex h-14 max-w-6xl items-center justify-between px-4">
          <span className="flex items-center gap-2 font-semibold text-slate-900">
            <span
              className="flex size-7 items-center justify-center rounded-md bg-primary-600 text-white"
              aria-hidden="true"
            >
              <FlaskConical className="size-4" />
            </span>
            <span data-testid="landing-lab-name">{lab ?? 'lims'}</span>
          </span>
          <LinkButton to="/login" variant="outline" size="sm">
            Sign In
          </LinkButton>
        </div>
      </header>
      <main>
        <section className="bg-gradient-to-b from-primary-50 to-white">
          <div className="mx-auto max-w-6xl px-4 py-14 sm:py-20">
            <p className="text-[13px] font-semibold tracking-wide text-primary-700 uppercase">
              {lab ? `${lab} · laboratory information management` : 'Laboratory information management'}
            </p>
            <h1 className="mt-2 max-w-3xl text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
              Run your diagnostic lab and outpatient clinic from one place
            </h1>
            <p className="mt-4 max-w-2xl text-base text-slate-700">
              Patients, billing, tests, samples, results, inventory and reports — built for the people who use it all
              day at the front desk, in the collection room and on the bench.
            </p>
            <div className="mt-6 flex flex-wrap gap-3">
              <LinkButton to="/login" size="lg">
                Get Started
              </LinkButton>
              <LinkButton to="/login" size="lg" variant="outline">
                Sign In
              </LinkButton>
            </div>
          </div>
        </section>

        <section aria-labelledby="features" className="mx-auto max-w-6xl px-4 py-12">
          <h2 id="features" className="text-xl font-semibold text-slate-900">
            Everything the lab needs
          </h2>
          <ul className="mt-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map(({ icon: Icon, title, text }) => (
              <li key={title} className="rounded-lg border border-slate-200 p-5 shadow-sm">
                <Icon className="size-6 text-primary-700" aria-hidden="true" />
                <h3 className="mt-3 font-semibold text-slate-900">{title}</h3>
                <p className="mt-1 text-slate-600">{text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section className="mx-auto max-w-6xl px-4 pb-14">
          <div className="flex flex-wrap items-center justify-between gap-4 rounded-lg bg-primary-700 px-6 py-6 text-white">
            <div>
              <h2 className="text-lg font-semibold">Ready to start?</h2>
              <p className="text-primary-100">Sign in with the account your administrator gave you.</p>
            </div>
            <LinkButton to="/login" variant="secondary" size="lg">
              <BarChart3 />
              Get Started
            </LinkButton>
          </div>
        </section>
      </main>
      <footer className="border-t border-slate-200 py-6 text-center text-[13px] text-slate-600">
        lims — laboratory information management and outpatient billing.
      </footer>
    </div>
  );
}
