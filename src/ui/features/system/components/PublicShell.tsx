import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components';

/** Public diagnostic pages have no sidebar: a centred column with a way back. */
export function PublicShell({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <main className="mx-auto w-full max-w-4xl px-4 py-8">
      <nav aria-label="Back" className="mb-4 flex gap-4 text-[13px]">
        <Link to="/" className="text-primary-700 hover:underline">
          Home page
        </Link>
        <Link to="/login" className="text-primary-700 hover:underline">
          Sign in
        </Link>
        <Link to="/home" className="text-primary-700 hover:underline">
          App home
        </Link>
      </nav>
      <PageHeader title={title} subtitle={subtitle} />
      {children}
    </main>
  );
}
