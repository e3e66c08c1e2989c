import type { ReactNode } from 'react';
import { FlaskConical } from 'lucide-react';
import { cn } from '@/lib/cn';

export interface SignedOutCardProps {
  /** The card's heading ("Sign In", "Set Your Password"). */
  title: string;
  /** Beside the lims mark: the lab's name where it is known; "lims" unless given. */
  name?: ReactNode;
  /** A brand of the page's own instead of the lims mark and name (the patient portal's). */
  brand?: ReactNode;
  /** The wider card, for a step that shows a QR code beside its text. */
  wide?: boolean;
  children: ReactNode;
}

/**
 * The frame of a page for someone not signed in (sign in, accept an invitation, the patient
 * portal's sign-in): the brand over one centred card, so all of them look like the same door.
 */
export function SignedOutCard({ title, name, brand, wide, children }: SignedOutCardProps) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 p-4">
      <div className={cn('w-full', wide ? 'max-w-xl' : 'max-w-md')}>
        <div className="mb-5 flex items-center justify-center gap-2">
          {brand ?? (
            <>
              <span
                className="flex size-9 items-center justify-center rounded-lg bg-primary-600 text-white"
                aria-hidden="true"
              >
                <FlaskConical className="size-5" />
              </span>
              {name ?? <span className="text-lg font-semibold text-slate-900">lims</span>}
            </>
          )}
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
          {children}
        </div>
      </div>
    </main>
  );
}
