import { Wrench } from 'lucide-react';
import { useCurrentUser } from '@/lib/session';

/** Shown on every screen while the lab is in maintenance mode (System Settings). */
export function MaintenanceBanner() {
  const user = useCurrentUser();
  // The lab's own table (the Permission Manager), as the server decides it.
  const admin = user.permissions.includes('system_settings');
  return (
    <div
      role="status"
      className="flex items-start gap-2 border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900 sm:px-6"
    >
      <Wrench className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <p>
        <strong>Maintenance mode.</strong>{' '}
        {admin
          ? 'Staff cannot save changes until you end it in System Settings; administrators can.'
          : 'Changes are paused until an administrator ends it. You can still look things up.'}
      </p>
    </div>
  );
}
