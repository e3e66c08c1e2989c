import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Bell } from 'lucide-react';
import { Tooltip, buttonClass } from '@/components';
import { cn } from '@/lib/cn';
import { useNotificationSummary } from '../api';

const shown = (n: number) => (n > 99 ? '99+' : String(n));

/**
 * The bell of the top bar: the signed-in user's unread count, kept up to date by a light poll
 * (useNotificationSummary); it opens the Notifications screen. A rise in the count is also said
 * to screen readers.
 */
export function NotificationBell() {
  const summary = useNotificationSummary();
  const unread = summary.data?.unread ?? 0;
  const label = summary.data ? `Notifications, ${unread === 0 ? 'none' : unread} unread` : 'Notifications';
  const [said, setSaid] = useState('');
  const before = useRef<number | null>(null);
  useEffect(() => {
    if (summary.data === undefined) return;
    if (before.current !== null && unread > before.current)
      setSaid(`${unread} unread ${unread === 1 ? 'notification' : 'notifications'}`);
    before.current = unread;
  }, [summary.data, unread]);

  return (
    <>
      <Tooltip content={label}>
        <Link
          to="/notifications"
          aria-label={label}
          data-unread={unread}
          className={cn(buttonClass('ghost', 'icon-sm'), 'relative')}
        >
          <Bell aria-hidden="true" />
          {unread > 0 && (
            <span
              aria-hidden="true"
              className="absolute -top-1 -right-1 min-w-[1.125rem] rounded-full bg-red-600 px-1 text-center text-[11px] leading-[1.125rem] font-semibold text-white tabular-nums"
            >
              {shown(unread)}
            </span>
          )}
        </Link>
      </Tooltip>
      <span role="status" className="sr-only">
        {said}
      </span>
    </>
  );
}
