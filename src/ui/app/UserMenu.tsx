import { useState } from 'react';
import { useNavigate } from 'react-router';
import { DropdownMenu } from 'radix-ui';
import { LogOut, MonitorSmartphone, Settings, ShieldCheck, User as UserIcon } from 'lucide-react';
import { ROLE_LABELS } from '@shared/roles';
import { Dialog, DateText } from '@/components';
import { cn } from '@/lib/cn';
import { notify } from '@/lib/notify';
import { fullName, useCurrentUser } from '@/lib/session';
import { useLogoutMutation } from '@/lib/auth';
import { UserBadge, userMenuFrame } from './UserBadge';

const itemClass =
  'flex cursor-default items-center gap-2 rounded px-2 py-1.5 text-sm text-slate-800 outline-none select-none data-[highlighted]:bg-slate-100 [&_svg]:size-4 [&_svg]:text-slate-500';

/**
 * Sidebar footer: who is signed in, Profile, Two-factor sign-in, Settings and Log out (spec 2.7).
 * Loaded after the first screen (the Sidebar shows `UserBadge` until then), with the menu library.
 */
export function UserMenu({ compact }: { compact: boolean }) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const logout = useLogoutMutation();
  const [profileOpen, setProfileOpen] = useState(false);
  const name = fullName(user) || user.email;
  const role = ROLE_LABELS[user.role] ?? user.role;

  const onLogout = () => {
    logout.mutate(undefined, {
      onSuccess: () => notify.success('Logged Out', 'You have been signed out.'),
      onSettled: () => void navigate('/login', { replace: true }),
    });
  };

  return (
    <div className={userMenuFrame(compact)}>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger
          aria-label={`Account menu for ${name}`}
          className={cn(
            'flex w-full items-center gap-2 rounded-md text-left hover:bg-slate-100 data-[state=open]:bg-slate-100',
            compact ? 'justify-center p-0.5' : 'p-1.5',
          )}
        >
          <UserBadge compact={compact} />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            side={compact ? 'right' : 'top'}
            align="end"
            sideOffset={6}
            className="z-50 min-w-56 rounded-md border border-slate-200 bg-white p-1 shadow-lg"
          >
            <DropdownMenu.Label className="px-2 py-1.5">
              <span className="block text-sm font-medium text-slate-900">{name}</span>
              <span className="block truncate text-xs text-slate-600">{user.email}</span>
            </DropdownMenu.Label>
            <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
            <DropdownMenu.Item className={itemClass} onSelect={() => setProfileOpen(true)}>
              <UserIcon aria-hidden="true" />
              Profile
            </DropdownMenu.Item>
            <DropdownMenu.Item className={itemClass} onSelect={() => void navigate('/account/two-factor')}>
              <ShieldCheck aria-hidden="true" />
              Two-factor sign-in
            </DropdownMenu.Item>
            <DropdownMenu.Item className={itemClass} onSelect={() => void navigate('/account/sessions')}>
              <MonitorSmartphone aria-hidden="true" />
              My sessions
            </DropdownMenu.Item>
            <DropdownMenu.Item className={itemClass} onSelect={() => void navigate('/settings')}>
              <Settings aria-hidden="true" />
              Settings
            </DropdownMenu.Item>
            <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
            <DropdownMenu.Item className={itemClass} disabled={logout.isPending} onSelect={onLogout}>
              <LogOut aria-hidden="true" />
              {logout.isPending ? 'Logging out...' : 'Log out'}
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>

      <Dialog
        open={profileOpen}
        onOpenChange={setProfileOpen}
        title="Profile"
        description="Your staff account in this lab."
        size="sm"
      >
        <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-2 text-sm">
          <dt className="text-slate-600">Name</dt>
          <dd className="text-slate-900">{name}</dd>
          <dt className="text-slate-600">Email</dt>
          <dd className="break-all text-slate-900">{user.email}</dd>
          <dt className="text-slate-600">Role</dt>
          <dd className="text-slate-900">{role}</dd>
          <dt className="text-slate-600">Department</dt>
          <dd className="text-slate-900">{user.department ?? '—'}</dd>
          <dt className="text-slate-600">Last sign-in</dt>
          <dd className="text-slate-900">
            <DateText value={user.last_login} withTime />
          </dd>
        </dl>
      </Dialog>
    </div>
  );
}
