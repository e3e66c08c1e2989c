import type { ComponentType } from 'react';
import type { Permission } from '@shared/roles';
import { RequireScreenPermission } from './RequireScreenPermission';

/**
 * A screen's page behind a permission its declaration does not check: the no-access panel under the
 * screen's title for users without it, else the page's body.
 * `export default screenPermissionPage('view_audit', 'the audit trail', AuditTrail);`
 */
export function screenPermissionPage(permission: Permission, what: string, Body: ComponentType): ComponentType {
  return function ScreenPermissionPage() {
    return (
      <RequireScreenPermission permission={permission} what={what}>
        <Body />
      </RequireScreenPermission>
    );
  };
}
