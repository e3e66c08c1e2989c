/**
 * Roles and permissions: the one place the role -> permission matrix is written.
 * docs/roles-and-permissions.md mirrors this table (a test checks they agree).
 */
export const ROLES = [
  'superadmin',
  'admin',
  'lab_manager',
  'doctor',
  'lab_technician',
  'technician',
  'receptionist',
  'billing_staff',
  'collector',
  'validator',
  'inventory_manager',
  'user',
  'centre',
] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  superadmin: 'Super Admin',
  admin: 'Admin',
  lab_manager: 'Lab Manager',
  doctor: 'Doctor',
  lab_technician: 'Lab Technician',
  technician: 'Technician',
  receptionist: 'Receptionist',
  billing_staff: 'Billing Staff',
  collector: 'Collector',
  validator: 'Validator',
  inventory_manager: 'Inventory Manager',
  user: 'User',
  centre: 'Collection Centre',
};

/** Rank decides who may assign which role: nobody assigns a role ranked above their own. */
export const ROLE_RANK: Record<Role, number> = {
  superadmin: 100,
  admin: 90,
  lab_manager: 70,
  doctor: 50,
  lab_technician: 50,
  technician: 40,
  receptionist: 40,
  billing_staff: 40,
  collector: 30,
  validator: 50,
  inventory_manager: 40,
  user: 10,
  centre: 5,
};

export const PERMISSIONS = [
  'view_patients',
  'manage_patients',
  /** Merges a duplicate patient into the record kept: moves every bill, sample, result and payment. */
  'merge_patients',
  'view_tests',
  'manage_tests',
  'view_samples',
  'manage_samples',
  'view_results',
  /**
   * Prints and hands over released reports (all results verified) and sees a bill's reports: the
   * front desk's share of results, without the results lists or anything not yet released.
   */
  'print_reports',
  'update_results',
  'verify_results',
  /**
   * Approves an autoverification rule set, puts it to work (shadow or live) and resumes
   * autoverification after a stop: results then leave the lab without a person, under this name.
   */
  'approve_autoverification',
  'manage_qc',
  'view_bills',
  'create_bills',
  'manage_bills',
  'delete_bills',
  'view_inventory',
  'manage_inventory',
  'view_users',
  'manage_users',
  'view_reports',
  'create_reports',
  'view_audit',
  /** Downloads of many records at once (CSV exports): patient data leaving the lab. */
  'export_data',
  'system_settings',
  'manage_appointments',
  'manage_lab',
  /** Changes what each role may do in this lab (the Permission Manager on /users); with manage_users. */
  'full_access',
  /** The labs on the server (Multi-Tenant Setup): the server's superadmin only, never a lab's admin. */
  'manage_tenants',
  /** Sees the equipment register, calibration and maintenance (Machines, Instruments, Calibration, Maintenance). */
  'view_equipment',
  /** The bench's work on equipment: status changes, readings, scheduling and recording calibration and maintenance. */
  'manage_equipment',
  /** The home-collection desk: the slot calendar and areas, booking, moving and cancelling visits, assigning phlebotomists. */
  'manage_home_collection',
  /** Goes to patients' homes: a phlebotomist who can be assigned visits and records them on the phone. */
  'collect_at_home',
  /**
   * A collection centre's own login: its patients, orders, labels, released reports and statement,
   * through /api/centre-portal only, every row filtered to the centre the user is bound to.
   */
  'centre_portal',
  /**
   * The accountant's month: its figures, the Tally day book, GSTR-1 and e-invoice files, and the
   * accounts settings those files are written with (ledger names, turnover, e-invoicing threshold).
   */
  'export_accounts',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const LAB_OPS: Permission[] = [
  'view_patients',
  'view_tests',
  'view_samples',
  'manage_samples',
  'view_results',
  'print_reports',
  'update_results',
  'manage_qc',
  'view_inventory',
  'view_users',
  'view_equipment',
  'manage_equipment',
];

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  // The centre portal answers for the one centre a login is bound to: no staff role has it.
  superadmin: PERMISSIONS.filter((p) => p !== 'centre_portal'),
  // A lab's admin has everything in the lab; the labs on the server are the superadmin's. The
  // centre portal is a centre login's only.
  admin: PERMISSIONS.filter((p) => p !== 'manage_tenants' && p !== 'centre_portal'),
  lab_manager: [
    ...LAB_OPS,
    'manage_patients',
    'merge_patients',
    'manage_tests',
    'verify_results',
    'approve_autoverification',
    'view_bills',
    'manage_inventory',
    'view_reports',
    'create_reports',
    'view_audit',
    'export_data',
    'manage_lab',
    'manage_home_collection',
    'export_accounts',
  ],
  doctor: [
    'view_patients',
    'view_tests',
    'view_samples',
    'view_results',
    'print_reports',
    'view_reports',
    'create_reports',
    'manage_appointments',
  ],
  lab_technician: LAB_OPS,
  technician: LAB_OPS,
  receptionist: [
    'view_patients',
    'manage_patients',
    'view_tests',
    'view_samples',
    'print_reports',
    'view_bills',
    'create_bills',
    'view_users',
    'manage_appointments',
    'manage_home_collection',
  ],
  billing_staff: [
    'view_patients',
    'view_tests',
    'print_reports',
    'view_bills',
    'create_bills',
    'manage_bills',
    'view_users',
    'view_reports',
    'export_accounts',
  ],
  collector: ['view_patients', 'view_tests', 'view_samples', 'manage_samples', 'view_users', 'collect_at_home'],
  validator: [
    'view_patients',
    'view_tests',
    'view_samples',
    'view_results',
    'print_reports',
    'verify_results',
    'view_reports',
    'view_users',
  ],
  inventory_manager: ['view_tests', 'view_inventory', 'manage_inventory'],
  user: ['view_patients', 'view_tests'],
  centre: ['centre_portal'],
};

export function permissionsOf(role: Role): readonly Permission[] {
  return ROLE_PERMISSIONS[role];
}

/** The defaults' answer. The server asks the lab's own table (src/core/users/permissions.ts). */
export function hasPermission(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/**
 * What each role may do in one lab: ROLE_PERMISSIONS, changed where the lab's administrators
 * granted or removed a permission in the Permission Manager.
 */
export type PermissionTable = Readonly<Record<Role, readonly Permission[]>>;

/**
 * What the admin role always keeps in a lab's table: the Permission Manager itself and managing
 * users, so an administrator can always put the table right. The superadmin keeps everything.
 */
export const ADMIN_LOCKED_PERMISSIONS: readonly Permission[] = ['view_users', 'manage_users', 'full_access'];

/**
 * Roles whose permissions the Permission Manager cannot change: the superadmin has everything; a
 * centre login sees one centre's rows through the portal, and any lab-wide permission would show it
 * the lab's (and other centres') patients, so it keeps exactly centre_portal.
 */
export const FIXED_ROLES: readonly Role[] = ['superadmin', 'centre'];

/** The permission no role but the centre's may have: the portal needs the centre a user is bound to. */
export const CENTRE_ONLY_PERMISSION: Permission = 'centre_portal';

/** The permissions a role cannot lose in the Permission Manager. */
export function lockedPermissions(role: Role): readonly Permission[] {
  if (role === 'superadmin' || role === 'centre') return ROLE_PERMISSIONS[role];
  if (role === 'admin') return ADMIN_LOCKED_PERMISSIONS;
  return [];
}

/** A user may assign only roles ranked at or below their own. */
export function canAssignRole(actor: Role, target: Role): boolean {
  return ROLE_RANK[target] <= ROLE_RANK[actor];
}

/** Roles offered in the OP Bill doctor picker (spec 2.8 / 6). */
export const DOCTOR_ROLES: readonly Role[] = ['doctor', 'lab_technician'];
