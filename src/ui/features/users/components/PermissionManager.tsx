import { useMemo, useState } from 'react';
import { Check, Lock, Pencil, RotateCcw, Save, ShieldCheck, X } from 'lucide-react';
import { PERMISSIONS, ROLE_LABELS, type Permission, type Role } from '@shared/roles';
import type { PermissionMatrix, RolePermissions } from '@shared/schemas/user-admin';
import { Button, Card, CardHeader, ConfirmDialog, ErrorPanel, FormField, LoadingState, Select } from '@/components';
import { ApiError } from '@/lib/api';
import { humanize } from '@/lib/format';
import { useIsMobile } from '@/lib/useIsMobile';
import { cn } from '@/lib/cn';
import { usePermissionMatrix, useSavePermissionsMutation } from '../api';

const label = (p: Permission) => humanize(p).replace(/\bqc\b/, 'QC');

type Draft = Partial<Record<Role, Permission[]>>;

/**
 * The Permission Manager (spec "Role Permissions" and the Permission Manager tool): the lab's own
 * table as the server enforces it. Admins (manage_users and full_access) edit the roles at or below
 * their own; what a role cannot lose is shown locked. A wide matrix on desktops; on a phone one role
 * at a time, its permissions stacked.
 */
export function PermissionManager() {
  const matrix = usePermissionMatrix();
  return (
    <Card>
      {matrix.isPending ? (
        <>
          <Header />
          <LoadingState text="Loading permissions..." className="py-8" />
        </>
      ) : matrix.isError ? (
        <>
          <Header />
          <ErrorPanel title="Could not load the permissions" query={matrix} className="m-4" />
        </>
      ) : (
        <Editor matrix={matrix.data} />
      )}
    </Card>
  );
}

function Header({ actions, customized }: { actions?: React.ReactNode; customized?: boolean }) {
  return (
    <CardHeader
      title="Role Permissions"
      className="flex-wrap"
      icon={<ShieldCheck />}
      description={
        customized
          ? 'What each role may do in this lab (changed from the lims defaults where marked). The server checks these on every request.'
          : 'What each role may do in this lab (the lims defaults). The server checks these on every request.'
      }
      actions={actions}
    />
  );
}

function Editor({ matrix }: { matrix: PermissionMatrix }) {
  const { save, reset } = useSavePermissionsMutation();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [confirmReset, setConfirmReset] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const canEdit = matrix.roles.some((r) => r.editable);
  const editing = draft !== null;

  const current = (r: RolePermissions) => draft?.[r.role] ?? r.permissions;
  const changedRoles = useMemo(
    () =>
      matrix.roles.filter((r) => {
        const d = draft?.[r.role];
        return d !== undefined && (d.length !== r.permissions.length || d.some((p) => !r.permissions.includes(p)));
      }),
    [draft, matrix.roles],
  );

  const toggle = (r: RolePermissions, p: Permission) => {
    const held = current(r);
    const next = held.includes(p)
      ? held.filter((x) => x !== p)
      : PERMISSIONS.filter((x) => x === p || held.includes(x));
    setDraft({ ...draft, [r.role]: next });
    setError(null);
  };

  const onSave = () =>
    save.mutate(
      { roles: changedRoles.map((r) => ({ role: r.role, permissions: current(r) })) },
      {
        onSuccess: () => setDraft(null),
        onError: (err) => setError(err instanceof ApiError ? err.message : String(err)),
      },
    );

  const actions = !canEdit ? undefined : editing ? (
    <>
      <Button variant="outline" size="sm" onClick={() => setDraft(null)} disabled={save.isPending}>
        <X aria-hidden="true" />
        Discard
      </Button>
      <Button
        size="sm"
        onClick={onSave}
        disabled={changedRoles.length === 0}
        loading={save.isPending}
        loadingText="Saving..."
      >
        <Save aria-hidden="true" />
        Save Changes
      </Button>
    </>
  ) : (
    <>
      {matrix.customized && (
        <Button variant="outline" size="sm" onClick={() => setConfirmReset(true)}>
          <RotateCcw aria-hidden="true" />
          Reset to Defaults
        </Button>
      )}
      <Button size="sm" onClick={() => setDraft({})}>
        <Pencil aria-hidden="true" />
        Edit Permissions
      </Button>
    </>
  );

  return (
    <>
      <Header
        actions={<div className="flex flex-wrap justify-end gap-2">{actions}</div>}
        customized={matrix.customized}
      />
      {editing && (
        <p role="status" className="border-b border-slate-100 bg-amber-50 px-4 py-2 text-[13px] text-amber-900">
          Tick what each role may do, then Save Changes.{' '}
          {changedRoles.length > 0
            ? `${changedRoles.length} ${changedRoles.length === 1 ? 'role' : 'roles'} changed.`
            : 'Nothing changed yet.'}{' '}
          Locked boxes cannot be removed: the superadmin has everything, and the admin role keeps user management and
          this table.
        </p>
      )}
      {error && (
        <p role="alert" className="border-b border-red-100 bg-red-50 px-4 py-2 text-[13px] text-red-800">
          {error}
        </p>
      )}
      <Grid matrix={matrix} editing={editing} current={current} toggle={toggle} />
      <ConfirmDialog
        open={confirmReset}
        onOpenChange={setConfirmReset}
        title="Reset to Defaults"
        message="Give every role the permissions lims starts with? Every change made in this lab's Permission Manager is undone (and recorded in the audit trail)."
        confirmLabel="Reset"
        busyLabel="Resetting..."
        busy={reset.isPending}
        onConfirm={() => reset.mutate(undefined, { onSettled: () => setConfirmReset(false) })}
      />
    </>
  );
}

interface GridProps {
  matrix: PermissionMatrix;
  editing: boolean;
  current: (r: RolePermissions) => Permission[];
  toggle: (r: RolePermissions, p: Permission) => void;
}

function Grid(props: GridProps) {
  return useIsMobile() ? <OneRole {...props} /> : <Matrix {...props} />;
}

/** One cell: a tick (or a box while editing), a lock where it cannot change, a dot where it differs from the default. */
function Cell({
  r,
  p,
  editing,
  held,
  onToggle,
}: {
  r: RolePermissions;
  p: Permission;
  editing: boolean;
  held: boolean;
  onToggle: () => void;
}) {
  const name = `${ROLE_LABELS[r.role]}: ${p}`;
  const locked = r.locked.includes(p);
  const changed = held !== r.defaults.includes(p);
  if (editing && r.editable && !locked) {
    return (
      <input
        type="checkbox"
        className="size-4 rounded border-slate-400 accent-primary-600"
        checked={held}
        onChange={onToggle}
        aria-label={name}
      />
    );
  }
  return (
    <span className="relative inline-flex items-center justify-center">
      {held ? (
        editing && locked ? (
          <Lock className="size-3.5 text-slate-500" aria-label={`${name} (locked)`} />
        ) : (
          <Check className="size-4 text-green-700" aria-label={`${ROLE_LABELS[r.role]} has ${p}`} />
        )
      ) : (
        <span className="text-slate-300" aria-label={`${ROLE_LABELS[r.role]} does not have ${p}`}>
          ·
        </span>
      )}
      {changed && (
        <span
          className="absolute -top-1 -right-2 size-1.5 rounded-full bg-amber-500"
          title="Changed from the default"
          aria-label="changed from the default"
        />
      )}
    </span>
  );
}

function Matrix({ matrix, editing, current, toggle }: GridProps) {
  return (
    <div className="max-h-[32rem] overflow-auto">
      <table className="w-full border-collapse text-[13px]">
        <caption className="sr-only">Permissions by role</caption>
        <thead className="sticky top-0 z-10 bg-slate-50">
          <tr className="border-b border-slate-200">
            <th
              scope="col"
              className="sticky left-0 z-20 bg-slate-50 px-3 py-2 text-left text-xs font-semibold text-slate-600 uppercase"
            >
              Permission
            </th>
            {matrix.roles.map((r) => (
              <th
                key={r.role}
                scope="col"
                className={cn(
                  'px-1.5 py-2 text-center text-xs font-semibold whitespace-nowrap text-slate-700',
                  editing && r.editable && 'text-primary-800',
                )}
              >
                {ROLE_LABELS[r.role]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {PERMISSIONS.map((p) => (
            <tr key={p} className="border-b border-slate-100 hover:bg-slate-50">
              <th
                scope="row"
                className="sticky left-0 bg-white px-3 py-1.5 text-left font-normal whitespace-nowrap text-slate-800"
              >
                {label(p)}
                <span className="sr-only"> ({p})</span>
              </th>
              {matrix.roles.map((r) => (
                <td key={r.role} className="px-1.5 py-1.5 text-center">
                  <Cell r={r} p={p} editing={editing} held={current(r).includes(p)} onToggle={() => toggle(r, p)} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Phones: choose a role, its permissions listed one per line. */
function OneRole({ matrix, editing, current, toggle }: GridProps) {
  const [role, setRole] = useState<Role>('receptionist');
  const r = matrix.roles.find((x) => x.role === role) ?? matrix.roles[0]!;
  return (
    <div className="p-4">
      <FormField label="Role">
        <Select
          value={r.role}
          onChange={(e) => setRole(e.target.value as Role)}
          options={matrix.roles.map((x) => ({ value: x.role, label: ROLE_LABELS[x.role] }))}
        />
      </FormField>
      <ul
        className="mt-3 divide-y divide-slate-100 rounded-md border border-slate-200"
        aria-label={`Permissions of ${ROLE_LABELS[r.role]}`}
      >
        {PERMISSIONS.map((p) => {
          const held = current(r).includes(p);
          return (
            <li key={p} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
              <span className={held ? 'text-slate-900' : 'text-slate-500'}>{label(p)}</span>
              <Cell r={r} p={p} editing={editing} held={held} onToggle={() => toggle(r, p)} />
            </li>
          );
        })}
      </ul>
      {editing && !r.editable && (
        <p className="mt-2 text-[13px] text-slate-600">You cannot change this role’s permissions.</p>
      )}
    </div>
  );
}
