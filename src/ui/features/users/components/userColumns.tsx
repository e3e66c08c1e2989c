import type { User } from '@shared/schemas/users';
import { Badge, type Column } from '@/components';
import { roleLabel } from '@/lib/roles';

/** The columns both staff lists show the same way (Users and User Management). */
export const emailColumn: Column<User> = {
  key: 'email',
  header: 'Email',
  cell: (u) => <span className="break-all">{u.email}</span>,
  hideOnMobile: true,
};

export const phoneColumn: Column<User> = {
  key: 'phone',
  header: 'Phone',
  cell: (u) => <span className="whitespace-nowrap">{u.phone ?? '—'}</span>,
  hideOnMobile: true,
};

export const roleColumn: Column<User> = {
  key: 'role',
  header: 'Role',
  cell: (u) => <Badge tone="blue">{roleLabel(u.role)}</Badge>,
};

const USER_SEARCH = 'Search by name, email or specialization...';

/** The table both staff lists are: its rows' key, its name and its search. */
export const userTable = {
  getRowId: (u: User) => u.id,
  caption: 'Users',
  itemLabel: 'users',
  search: { placeholder: USER_SEARCH, label: USER_SEARCH },
};

/** Phones have no room for an email column: the name cell shows it under the name. */
export function EmailUnderName({ user }: { user: User }) {
  return <span className="block text-[13px] break-all text-slate-600 md:hidden">{user.email}</span>;
}
