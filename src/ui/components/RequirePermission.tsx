import type { ReactNode } from 'react';
import type { Permission } from '@shared/roles';
import { useCurrentUser } from '@/lib/session';
import { NoAccess } from './NoAccess';
import { PageHeader } from './PageHeader';

export interface RequirePermissionProps {
  permission: Permission;
  /** What the screen shows, for the message: "bills", "the audit trail". */
  what: string;
  /** The screen's title, shown above the message. */
  title: string;
  subtitle?: string;
  children: ReactNode;
}

/**
 * Without the permission the server refuses every call of the screen: say so once, naming the
 * permission and the user's role, instead of a screen of failed requests.
 */
export function RequirePermission({ permission, what, title, subtitle, children }: RequirePermissionProps) {
  const user = useCurrentUser();
  if (!user.permissions.includes(permission)) {
    return (
      <>
        <PageHeader title={title} subtitle={subtitle} />
        <NoAccess what={what} permission={permission} />
      </>
    );
  }
  return <>{children}</>;
}
