import { Link, useLocation, useNavigate } from 'react-router';
import {
  ArrowLeft,
  FileQuestion,
  FlaskConical,
  HelpCircle,
  Home,
  LayoutDashboard,
  Package,
  RefreshCw,
  Users,
} from 'lucide-react';
import { Button, LinkButton } from '@/components';

const QUICK_LINKS = [
  { to: '/dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { to: '/patients', label: 'Patient Registration', icon: Users },
  { to: '/test-packages', label: 'Test Management', icon: Package },
  { to: '/results', label: 'Results', icon: FlaskConical },
];

/** Spec 2.2: any unknown path. */
export function NotFoundPage() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="w-full max-w-xl rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <div className="text-center">
          <FileQuestion className="mx-auto size-12 text-slate-400" aria-hidden="true" />
          <p className="mt-3 text-5xl font-bold text-slate-300" aria-hidden="true">
            404
          </p>
          <h1 className="mt-2 text-2xl font-semibold text-slate-900">Page Not Found</h1>
          <p className="mt-2 text-slate-600">The page you are looking for does not exist or has been moved.</p>
          <p className="mt-3 text-[13px] text-slate-600">
            Requested path:{' '}
            <code data-testid="requested-path" className="rounded bg-slate-100 px-1.5 py-0.5 break-all text-slate-900">
              {pathname + search}
            </code>
          </p>
        </div>

        <div className="mt-6 flex flex-wrap justify-center gap-2">
          <LinkButton to="/">
            <Home />
            Go to Home
          </LinkButton>
          <Button variant="outline" onClick={() => void navigate(-1)}>
            <ArrowLeft />
            Go Back
          </Button>
          <Button variant="outline" onClick={() => window.location.reload()}>
            <RefreshCw />
            Refresh
          </Button>
        </div>

        <section aria-labelledby="quick-links" className="mt-6 border-t border-slate-100 pt-5">
          <h2 id="quick-links" className="text-[13px] font-semibold text-slate-700">
            Quick Links
          </h2>
          <ul className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2">
            {QUICK_LINKS.map(({ to, label, icon: Icon }) => (
              <li key={to}>
                <Link
                  to={to}
                  className="flex items-center gap-2 rounded-md border border-slate-200 px-3 py-2 text-slate-800 hover:border-primary-200 hover:bg-primary-50"
                >
                  <Icon className="size-4 text-primary-700" aria-hidden="true" />
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </section>

        <div className="mt-5 flex items-start gap-2 rounded-md bg-slate-50 p-3 text-[13px] text-slate-700">
          <HelpCircle className="mt-0.5 size-4 shrink-0 text-slate-500" aria-hidden="true" />
          <p>
            <strong className="font-semibold">Need Help?</strong> If you believe this is an error, contact your system
            administrator.
          </p>
        </div>
      </div>
    </main>
  );
}
