import { ChevronsUpDown } from 'lucide-react';
import { ROLE_LABELS } from '@shared/roles';
import { cn } from '@/lib/cn';
import { fullName, initialsOf, useCurrentUser } from '@/lib/session';

export function Avatar({ initials, className }: { initials: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex size-8 shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary-100 text-xs font-semibold text-primary-800',
        className,
      )}
    >
      {initials.slice(0, 3)}
    </span>
  );
}

export const userMenuFrame = (compact: boolean) => cn('shrink-0 border-t border-slate-200', compact ? 'p-1.5' : 'p-2');

/** Who is signed in, as the account menu's button shows it. */
export function UserBadge({ compact }: { compact: boolean }) {
  const user = useCurrentUser();
  const name = fullName(user) || user.email;
  const role = ROLE_LABELS[user.role] ?? user.role;
  return (
    <>
      <Avatar initials={initialsOf(user)} />
      {!compact && (
        <>
          <span className="min-w-0 flex-1 leading-tight">
            <span className="block truncate text-[13px] font-medium text-slate-900">{name}</span>
            <span className="block truncate text-xs text-slate-600">{role}</span>
          </span>
          <ChevronsUpDown className="size-4 text-slate-500" aria-hidden="true" />
        </>
      )}
    </>
  );
}

/** The same footer while the menu's code loads (a moment after the first screen). */
export function UserBadgePlaceholder({ compact }: { compact: boolean }) {
  return (
    <div className={userMenuFrame(compact)}>
      <div className={cn('flex w-full items-center gap-2 rounded-md', compact ? 'justify-center p-0.5' : 'p-1.5')}>
        <UserBadge compact={compact} />
      </div>
    </div>
  );
}
