import { Link } from 'react-router';
import { Construction } from 'lucide-react';
import { PageHeader } from '@/components';
import type { ScreenDef } from '@/lib/screens';

/**
 * A route of the spec whose module is not built yet. It names the screen and says so plainly:
 * no sample rows, no buttons that do nothing.
 */
export function ModulePlaceholder({ screen }: { screen: ScreenDef }) {
  const isPublic = screen.access === 'public';
  const body = (
    <>
      <PageHeader title={screen.title} subtitle={screen.subtitle} />
      <section
        aria-label="Module status"
        className="flex items-start gap-3 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      >
        <Construction className="mt-0.5 size-5 shrink-0 text-slate-500" aria-hidden="true" />
        <div>
          <p className="font-medium text-slate-900">This module is not available yet in this version of lims.</p>
          <p className="mt-1 text-[13px] text-slate-600">
            {isPublic ? (
              <>
                Staff can{' '}
                <Link className="text-primary-700 underline" to="/login">
                  sign in
                </Link>{' '}
                to use the available modules.
              </>
            ) : (
              'The other modules in the sidebar keep working as usual.'
            )}
          </p>
        </div>
      </section>
    </>
  );
  if (!isPublic) return body;
  // Public routes have no sidebar: centre the note on its own page.
  return <main className="mx-auto w-full max-w-3xl px-4 py-10">{body}</main>;
}
