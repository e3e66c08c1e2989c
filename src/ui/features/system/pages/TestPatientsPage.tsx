import type { ReactNode } from 'react';
import { CheckCircle2 } from 'lucide-react';
import { Card, CardBody, CardHeader, LinkButton, ScreenHeader } from '@/components';
import { fullName, useCurrentUser } from '@/lib/session';
import { roleLabel } from '@/lib/roles';

function Check({ children }: { children: ReactNode }) {
  return (
    <li className="flex items-start gap-2">
      <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-green-600" aria-hidden="true" />
      <span>{children}</span>
    </li>
  );
}

/** Test Patients (spec 2.18): proves routing and the protected-route check, with the real signed-in user. */
export default function TestPatientsPage() {
  const user = useCurrentUser();
  return (
    <>
      <ScreenHeader />
      <Card className="max-w-2xl">
        <CardHeader title="Routing and protected route" />
        <CardBody>
          <ul className="grid gap-2 text-sm text-slate-800">
            <Check>Routing works: this page was reached at /test-patients.</Check>
            <Check>
              The protected route works: the server confirmed your session, so the page is shown instead of the sign-in
              form.
            </Check>
            <Check>
              Signed in as <strong>{fullName(user)}</strong> ({user.email}), role{' '}
              <strong>{roleLabel(user.role)}</strong>, with {user.permissions.length} permissions.
            </Check>
          </ul>
          <div className="mt-4 flex flex-wrap gap-2">
            <LinkButton to="/patients" variant="outline">
              Go to All Patients
            </LinkButton>
            <LinkButton to="/auth-debug" variant="ghost">
              Auth Debug
            </LinkButton>
          </div>
        </CardBody>
      </Card>
    </>
  );
}
