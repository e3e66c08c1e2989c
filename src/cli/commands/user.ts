import { Option, type Command } from 'commander';
import type { UserRow } from '../../core/users/repository.js';

import { ROLES, ROLE_LABELS, type Role } from '../../shared/roles.js';
import { passwordResetSchema, userCreateSchema, type User } from '../../shared/schemas/users.js';
import { withLab, type Lab } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import { isInteractive, parseFlags, validatorFor } from '../flags.js';
import { FORMATS, formatTimestamp, type Format, type Output } from '../output.js';
import { askNewPassword } from '../prompts.js';
import type { PasswordPolicy } from '../../shared/constants.js';
import { DEFAULT_PASSWORD_POLICY, PASSWORD_RULE_TEXT } from '../../shared/password-policy.js';
import { PERSON_TITLES, titledName } from '../../shared/person-name.js';

/** The user functions, loaded when a user command runs (not for every lims command line). */
const userService = () => import('../../core/users/service.js');

const FLAG_OF: Readonly<Record<string, string>> = {
  title: '--title',
  email: '--email',
  first_name: '--first-name',
  last_name: '--last-name',
  role: '--role',
  password: '--password',
  department: '--department',
  phone: '--phone',
};
const SECRET = new Set(['password']);

interface AddFlags {
  title?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  role?: Role;
  password?: string;
  department?: string;
  phone?: string;
}

interface ListFlags {
  role?: Role;
  search?: string;
  all?: boolean;
  format: Format;
}

const roleOption = (description: string) => new Option('--role <role>', description).choices(ROLES);

export function registerUser(program: Command, out: Output): void {
  const user = program.command('user').description('manage the accounts of lab staff');

  user
    .command('add')
    .description('add a staff account (asks for missing details on a terminal)')
    .option('--email <email>', 'email address, used to sign in')
    .option('--title <title>', `title shown before the name (optional): ${PERSON_TITLES.join(', ')}`)
    .option('--first-name <name>', 'first name (a title typed in front, "Dr. Meena", goes to --title)')
    .option('--last-name <name>', 'last name')
    .addOption(roleOption('role, which decides what the user may do'))
    .option(
      '--password <password>',
      `initial password, as the lab's password policy asks (a new lab's: ${PASSWORD_RULE_TEXT[DEFAULT_PASSWORD_POLICY]}); asked for on a terminal when missing`,
    )
    .option('--department <name>', 'department (optional)')
    .option('--phone <phone>', 'phone number (optional)')
    .addHelpText(
      'after',
      `
Example:
  $ lims user add --email asha@citylab.in --first-name Asha --last-name Rao --role receptionist --password 'front-desk-2026'`,
    )
    .action((flags: AddFlags, cmd: Command) => withLab(cmd, (lab) => addUser(lab, flags, out)));

  user
    .command('list')
    .description('list staff accounts (active ones unless --all)')
    .addOption(roleOption('only users with this role'))
    .option('--search <text>', 'only users whose name or email contains this text')
    .option('--all', 'include deactivated accounts')
    .addOption(new Option('--format <format>', 'output format').choices(FORMATS).default('table'))
    .action((flags: ListFlags, cmd: Command) => withLab(cmd, (lab) => list(lab, flags, out)));

  user
    .command('reset-password')
    .description("set a new password for a user and end that user's open sessions")
    .argument('<email>', "the user's email address")
    .option(
      '--password <password>',
      `the new password, as the lab's password policy asks (a new lab's: ${PASSWORD_RULE_TEXT[DEFAULT_PASSWORD_POLICY]}); asked for on a terminal when missing`,
    )
    .action((email: string, flags: { password?: string }, cmd: Command) => {
      // Checked before the database is opened, so a bad flag changes nothing and exits 2.
      const given =
        flags.password === undefined ? undefined : parseFlags(passwordResetSchema, flags, FLAG_OF, SECRET).password;
      return withLab(cmd, (lab) => reset(lab, email, given, out));
    });

  user
    .command('deactivate')
    .description('deactivate a user: they can no longer sign in and their open sessions end (records keep their name)')
    .argument('<email>', "the user's email address")
    .action((email: string, _flags: unknown, cmd: Command) => withLab(cmd, (lab) => setActive(lab, email, false, out)));

  user
    .command('reset-two-factor')
    .description(
      "switch a user's two-factor sign-in off (a lost phone) and end their open sessions; if the lab requires it, they set up a new authenticator at their next sign-in",
    )
    .argument('<email>', "the user's email address")
    .action((email: string, _flags: unknown, cmd: Command) =>
      withLab(cmd, async (lab) => {
        const row = await findInLab(lab, email);
        await (await import('../../core/two-factor/service.js')).resetUserTwoFactor(lab.database.db, lab.actor, row.id);
        out.line(`Two-factor sign-in reset for ${row.email}; their open sessions were ended.`);
      }),
    );

  user
    .command('activate')
    .description('let a deactivated user sign in again')
    .argument('<email>', "the user's email address")
    .action((email: string, _flags: unknown, cmd: Command) => withLab(cmd, (lab) => setActive(lab, email, true, out)));
}

/** The lab's password policy, which the prompt states and checks (the save checks it again). */
async function labPolicy(lab: Lab): Promise<PasswordPolicy> {
  const { labSettings } = await import('../../core/settings/organization.js');
  return (await labSettings(lab.database.db, lab.org.id)).passwordPolicy;
}

async function addUser(lab: Lab, flags: AddFlags, out: Output): Promise<void> {
  const raw: Record<string, unknown> = {
    title: flags.title,
    email: flags.email,
    first_name: flags.firstName,
    last_name: flags.lastName,
    role: flags.role,
    password: flags.password,
    department: flags.department,
    phone: flags.phone,
  };
  const required = ['email', 'first_name', 'last_name', 'role', 'password'];
  const missing = required.filter((k) => raw[k] === undefined);
  if (missing.length > 0) {
    if (!isInteractive()) {
      throw new UsageError(
        `missing ${missing.map((k) => FLAG_OF[k]).join(', ')}: without a terminal, lims user add needs ` +
          '--email, --first-name, --last-name, --role and --password',
      );
    }
    // Flags given so far are validated first, so nobody types answers for a command that will fail.
    parseFlags(userCreateSchema.partial(), raw, FLAG_OF, SECRET);
    const { input, select } = await import('@inquirer/prompts');
    const shape = userCreateSchema.shape;
    raw.email ??= await input({ message: 'Email (used to sign in)', validate: validatorFor(shape.email) });
    raw.first_name ??= await input({ message: 'First name', validate: validatorFor(shape.first_name) });
    raw.last_name ??= await input({ message: 'Last name', validate: validatorFor(shape.last_name) });
    raw.role ??= await select({
      message: 'Role',
      choices: ROLES.map((r) => ({ value: r, name: ROLE_LABELS[r] })),
      default: 'receptionist',
    });
    raw.password ??= await askNewPassword(out, 'Password', await labPolicy(lab), {
      email: String(raw.email),
      name: `${String(raw.first_name)} ${String(raw.last_name)}`,
    });
  }
  const created = await (
    await userService()
  ).createUser(lab.database.db, lab.actor, parseFlags(userCreateSchema, raw, FLAG_OF, SECRET));
  out.line(`Added ${fullName(created)} <${created.email}> as ${ROLE_LABELS[created.role]} (user id ${created.id}).`);
}

async function list(lab: Lab, flags: ListFlags, out: Output): Promise<void> {
  const users = await (
    await userService()
  ).listUsers(lab.database.db, lab.org.id, {
    role: flags.role,
    search: flags.search,
    include_inactive: flags.all ?? false,
  });
  const tz = lab.org.timezone;
  out.list<User>(flags.format, {
    rows: users,
    empty: flags.role || flags.search ? 'No users match.' : 'No users yet.',
    columns: [
      { header: 'ID', value: (u) => u.id },
      { header: 'Name', value: (u) => fullName(u) },
      { header: 'Email', value: (u) => u.email },
      { header: 'Role', value: (u) => u.role, display: (u) => ROLE_LABELS[u.role] },
      { header: 'Department', value: (u) => u.department },
      { header: 'Active', value: (u) => u.is_active },
      { header: 'Status', value: (u) => u.status },
      { header: 'Last login', value: (u) => u.last_login, display: (u) => formatTimestamp(u.last_login, tz) },
    ],
  });
}

async function reset(lab: Lab, email: string, given: string | undefined, out: Output): Promise<void> {
  const row = await findInLab(lab, email);
  let password = given;
  if (password === undefined) {
    if (!isInteractive()) {
      throw new UsageError('missing --password: without a terminal, lims user reset-password needs --password');
    }
    password = await askNewPassword(out, `New password for ${row.email}`, await labPolicy(lab), {
      email: row.email,
      name: `${row.first_name} ${row.last_name}`,
    });
  }
  await (await userService()).resetPassword(lab.database.db, lab.actor, row.id, password);
  out.line(`Password reset for ${row.email}; their open sessions were ended.`);
}

async function setActive(lab: Lab, email: string, active: boolean, out: Output): Promise<void> {
  const row = await findInLab(lab, email);
  if ((row.is_active === 1) === active) {
    out.line(`${row.email} is already ${active ? 'active' : 'deactivated'}; nothing was changed.`);
    return;
  }
  if (active) {
    await (await userService()).updateUser(lab.database.db, lab.actor, row.id, { is_active: true });
    out.line(`Activated ${row.email}; they can sign in again.`);
  } else {
    await (await userService()).deactivateUser(lab.database.db, lab.actor, row.id);
    out.line(`Deactivated ${row.email}; they can no longer sign in and their open sessions were ended.`);
  }
}

async function findInLab(lab: Lab, email: string): Promise<UserRow> {
  const row = await (
    await import('../../core/users/repository.js')
  ).findUserByEmail(lab.database.db, lab.org.id, email.trim());
  if (!row) throw new CliError(`no user with email ${email.trim()} in this lab`);
  return row;
}

function fullName(u: { title?: string | null; first_name: string; last_name: string }): string {
  return titledName(u);
}
