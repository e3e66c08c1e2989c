import type { ReactNode } from 'react';
import type { Permission } from '@shared/roles';
import { useScreen } from '@/lib/screens';
import { RequirePermission } from './RequirePermission';

export interface RequireScreenPermissionProps {
  permission: Permission;
  /** What the screen shows, for the message: "staff accounts", "the audit trail". */
  what: string;
  children: ReactNode;
}

/**
 * The no-access panel under the screen's own title and subtitle, for a permission the screen's
 * declaration does not check (a second one, or one its page needs where the menu entry is open).
 */
export function RequireScreenPermission({ permission, what, children }: RequireScreenPermissionProps) {
  const screen = useScreen();
  return (
    <RequirePermission permission={permission} what={what} title={screen.title} subtitle={screen.subtitle}>
      {children}
    </RequirePermission>
  );
}
