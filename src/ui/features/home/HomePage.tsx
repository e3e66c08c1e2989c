import { Link, Navigate } from 'react-router';
import { ArrowRight, LayoutDashboard, TestTube, TestTubes, UserCog, Users } from 'lucide-react';
import { LinkButton } from '@/components';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { LabCountCards } from '@/components/LabCountCards';
import type { CountCardDef } from '@/components/CountCards';
import { useDashboardStats } from '@/lib/dashboard';
import { useScreens, type ScreenDef } from '@/lib/screens';

const CARDS: CountCardDef[] = [
  { key: 'patients', label: 'Patients', icon: <Users />, hint: 'registered' },
  { key: 'tests', label: 'Tests', icon: <TestTube />, hint: 'in the catalogue' },
  { key: 'samples', label: 'Samples', icon: <TestTubes />, hint: 'collected' },
  { key: 'users', label: 'Staff', icon: <UserCog />, hint: 'active accounts' },
];

/** Spec 2.5: welcome, summary cards, the 12 modules, and the three main buttons. */
/** The module cards of the home page (spec 000, 2.5): the screens that declare one, in the spec's order. */
function homeCards(screens: readonly ScreenDef[]) {
  return screens
    .filter((s) => s.home)
    .map((s) => ({ path: s.path, ...s.home! }))
    .sort((a, b) => a.order - b.order);
}

/** A centre's login lands on its portal: the lab's home shows figures of the whole lab. */
export default function HomePage() {
  return can(useCurrentUser(), 'centre_portal') ? <Navigate to="/centre-portal" replace /> : <LabHome />;
}

function LabHome() {
  const user = useCurrentUser();
  const screens = useScreens();
  const stats = useDashboardStats();
  return (
    <>
      <section className="mb-5 flex flex-wrap items-end justify-between gap-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <div>
          <h1 className="text-xl font-semibold text-slate-900 sm:text-2xl">
            Welcome, {user.first_name} {user.last_name}
          </h1>
          <p className="mt-1 text-slate-600">Your laboratory at a glance. Pick a module to get started.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <LinkButton to="/dashboard">
            <LayoutDashboard />
            Dashboard
          </LinkButton>
          <LinkButton to="/patients" variant="outline">
            <Users />
            Patients
          </LinkButton>
          <LinkButton to="/samples" variant="outline">
            <TestTubes />
            Samples
          </LinkButton>
        </div>
      </section>

      <LabCountCards
        stats={stats}
        defs={CARDS}
        label="Summary"
        className="mb-6 grid grid-cols-2 gap-3 lg:grid-cols-4"
      />

      <section aria-labelledby="modules-heading">
        <h2 id="modules-heading" className="mb-3 text-base font-semibold text-slate-900">
          Modules
        </h2>
        <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {homeCards(screens).map(({ path, title, description, icon: Icon }) => (
            <li key={path}>
              <Link
                to={path}
                className="group flex h-full items-start gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm transition-colors hover:border-primary-200 hover:bg-primary-50"
              >
                <span
                  className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary-50 text-primary-700 group-hover:bg-white"
                  aria-hidden="true"
                >
                  <Icon className="size-5" />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="flex items-center justify-between gap-2 font-medium text-slate-900">
                    {title}
                    <ArrowRight className="size-4 text-slate-400 group-hover:text-primary-700" aria-hidden="true" />
                  </span>
                  <span className="mt-0.5 block text-[13px] text-slate-600">{description}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
