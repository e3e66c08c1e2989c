import { useState } from 'react';
import { ShieldOff, UserCheck, UserCog, UserMinus, X } from 'lucide-react';
import type { Role } from '@shared/roles';
import type { User } from '@shared/schemas/users';
import type { BulkAction } from '@shared/schemas/user-admin';
import { Button, ConfirmDialog, Select } from '@/components';
import { assignableRoles, roleLabel } from '@/lib/roles';
import { fullName, useCurrentUser } from '@/lib/session';
import { useBulkUsersMutation } from '../api';

const VERB: Record<BulkAction, string> = {
  activate: 'Activate',
  deactivate: 'Deactivate',
  suspend: 'Suspend',
  change_role: 'Change Role',
};

/** "Asha Rao, Ravi Menon and 3 more". */
function names(users: User[]): string {
  const shown = users.slice(0, 3).map(fullName);
  const rest = users.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${rest} more` : shown.join(', ').replace(/, ([^,]*)$/, ' and $1');
}

/**
 * Bulk Operations (spec tool): the selected users activated, deactivated, suspended or given a role
 * in one call; the server changes all of them or none and names the user that stops it.
 */
export function BulkOperationsBar({ selected, onDone }: { selected: User[]; onDone: () => void }) {
  const me = useCurrentUser();
  const bulk = useBulkUsersMutation();
  const [role, setRole] = useState<Role | ''>('');
  const [confirm, setConfirm] = useState<BulkAction | null>(null);
  const n = selected.length;
  const idle = n === 0 || bulk.isPending;

  const run = (action: BulkAction) =>
    bulk.mutate(
      { ids: selected.map((u) => u.id), action, ...(action === 'change_role' && role ? { role } : {}) },
      {
        onSuccess: () => {
          setRole('');
          onDone();
        },
        onSettled: () => setConfirm(null),
      },
    );

  const message =
    confirm &&
    {
      activate: `Activate ${names(selected)}? They can sign in again (a suspension is lifted).`,
      deactivate: `Deactivate ${names(selected)}? They are signed out and can no longer sign in. Their records stay.`,
      suspend: `Suspend ${names(selected)}? They are signed out at once and cannot sign in until the suspension is lifted.`,
      change_role: `Give ${names(selected)} the role ${role ? roleLabel(role) : ''}? They are signed out and sign in again with the new role's permissions.`,
    }[confirm];

  return (
    <div
      role="region"
      aria-label="Bulk Operations"
      className="flex flex-wrap items-center gap-2 border-b border-primary-100 bg-primary-50 px-3 py-2"
    >
      <span className="mr-1 text-sm font-medium text-primary-900" aria-live="polite">
        {n === 0 ? 'Bulk Operations: tick users below' : `${n} selected`}
      </span>
      <Button size="sm" variant="outline" onClick={() => setConfirm('activate')} disabled={idle}>
        <UserCheck aria-hidden="true" />
        Activate
      </Button>
      <Button size="sm" variant="outline" onClick={() => setConfirm('deactivate')} disabled={idle}>
        <UserMinus aria-hidden="true" />
        Deactivate
      </Button>
      <Button size="sm" variant="outline" onClick={() => setConfirm('suspend')} disabled={idle}>
        <ShieldOff aria-hidden="true" />
        Suspend
      </Button>
      <div className="flex items-center gap-2">
        <Select
          aria-label="New role"
          value={role}
          onChange={(e) => setRole(e.target.value as Role | '')}
          placeholder="Choose role..."
          options={assignableRoles(me.role).map((r) => ({ value: r, label: roleLabel(r) }))}
          className="w-44"
        />
        <Button size="sm" variant="outline" onClick={() => setConfirm('change_role')} disabled={idle || !role}>
          <UserCog aria-hidden="true" />
          Change Role
        </Button>
      </div>
      {n > 0 && (
        <Button size="sm" variant="ghost" onClick={onDone} className="ml-auto" disabled={bulk.isPending}>
          <X aria-hidden="true" />
          Clear selection
        </Button>
      )}
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(o) => !o && setConfirm(null)}
        title={confirm ? `${VERB[confirm]} ${n} ${n === 1 ? 'user' : 'users'}` : ''}
        message={message}
        confirmLabel={confirm ? VERB[confirm] : ''}
        busyLabel="Applying..."
        destructive={confirm === 'deactivate' || confirm === 'suspend'}
        busy={bulk.isPending}
        onConfirm={() => confirm && run(confirm)}
      />
    </div>
  );
}
