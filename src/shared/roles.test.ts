import { describe, expect, it } from 'vitest';
import {
  DOCTOR_ROLES,
  PERMISSIONS,
  ROLES,
  ROLE_LABELS,
  ROLE_PERMISSIONS,
  ROLE_RANK,
  canAssignRole,
  hasPermission,
  permissionsOf,
  type Permission,
  type Role,
} from './roles.js';

describe('roles', () => {
  it('are the twelve staff roles of the product and a centre’s login, in order', () => {
    expect(ROLES).toEqual([
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
    ]);
    for (const r of ROLES) expect(ROLE_LABELS[r]).toBeTruthy();
  });

  it('use the spec’s permission names', () => {
    for (const p of [
      'view_patients',
      'manage_samples',
      'update_results',
      'create_bills',
      'manage_inventory',
      'manage_users',
      'system_settings',
      'view_reports',
    ]) {
      expect(PERMISSIONS).toContain(p);
    }
  });

  it('grant only known permissions, each once', () => {
    for (const r of ROLES) {
      const perms = permissionsOf(r);
      expect(new Set(perms).size, r).toBe(perms.length);
      for (const p of perms) expect(PERMISSIONS, `${r}: ${p}`).toContain(p);
    }
  });
});

describe('ROLE_PERMISSIONS', () => {
  it('superadmin has every permission but the centre portal; admin every one but that and manage_tenants', () => {
    for (const p of PERMISSIONS) {
      expect(hasPermission('admin', p), p).toBe(p !== 'manage_tenants' && p !== 'centre_portal');
      expect(hasPermission('superadmin', p), p).toBe(p !== 'centre_portal');
    }
  });

  it("only a centre's login has the centre portal, and nothing else", () => {
    expect(ROLES.filter((r) => hasPermission(r, 'centre_portal'))).toEqual(['centre']);
    expect(permissionsOf('centre')).toEqual(['centre_portal']);
  });

  it('only the superadmin manages tenants', () => {
    expect(ROLES.filter((r) => hasPermission(r, 'manage_tenants'))).toEqual(['superadmin']);
  });

  const grants: [Role, Permission[], Permission[]][] = [
    [
      'receptionist',
      ['view_patients', 'manage_patients', 'create_bills'],
      ['update_results', 'verify_results', 'manage_users', 'manage_inventory'],
    ],
    [
      'billing_staff',
      ['view_patients', 'create_bills', 'manage_bills'],
      ['manage_patients', 'update_results', 'manage_users'],
    ],
    [
      'technician',
      ['view_patients', 'manage_samples', 'update_results'],
      ['verify_results', 'create_bills', 'manage_patients'],
    ],
    ['lab_technician', ['manage_samples', 'update_results'], ['verify_results', 'create_bills', 'manage_users']],
    ['validator', ['view_results', 'verify_results'], ['update_results', 'create_bills', 'manage_patients']],
    ['inventory_manager', ['view_inventory', 'manage_inventory'], ['view_patients', 'create_bills', 'update_results']],
    [
      'doctor',
      ['view_patients', 'view_results', 'view_reports'],
      ['manage_patients', 'update_results', 'create_bills', 'manage_users'],
    ],
    ['collector', ['view_patients', 'manage_samples'], ['update_results', 'create_bills']],
    [
      'lab_manager',
      ['manage_tests', 'verify_results', 'view_audit', 'manage_inventory'],
      ['manage_users', 'system_settings'],
    ],
    ['user', ['view_patients'], ['manage_patients', 'create_bills', 'manage_samples', 'view_audit']],
  ];
  for (const [role, yes, no] of grants) {
    it(`${role} may ${yes.join(', ')} but not ${no.join(', ')}`, () => {
      for (const p of yes) expect(hasPermission(role, p), p).toBe(true);
      for (const p of no) expect(hasPermission(role, p), p).toBe(false);
    });
  }

  it('only admins manage users, change system settings or hold full access', () => {
    for (const p of ['manage_users', 'system_settings', 'full_access'] as const) {
      expect(ROLES.filter((r) => hasPermission(r, p))).toEqual(['superadmin', 'admin']);
    }
  });

  it('hasPermission agrees with the table', () => {
    for (const r of ROLES)
      for (const p of PERMISSIONS) expect(hasPermission(r, p)).toBe(ROLE_PERMISSIONS[r].includes(p));
  });
});

describe('canAssignRole', () => {
  it('an admin cannot make a superadmin, but can make another admin', () => {
    expect(canAssignRole('admin', 'superadmin')).toBe(false);
    expect(canAssignRole('admin', 'admin')).toBe(true);
  });

  it('the superadmin may assign every role', () => {
    for (const r of ROLES) expect(canAssignRole('superadmin', r)).toBe(true);
  });

  it('nobody assigns a role ranked above their own; their own rank is fine', () => {
    for (const a of ROLES) {
      expect(canAssignRole(a, a)).toBe(true);
      for (const t of ROLES) expect(canAssignRole(a, t), `${a} -> ${t}`).toBe(ROLE_RANK[t] <= ROLE_RANK[a]);
    }
    expect(canAssignRole('lab_manager', 'admin')).toBe(false);
    expect(canAssignRole('lab_manager', 'technician')).toBe(true);
    expect(canAssignRole('receptionist', 'lab_manager')).toBe(false);
  });

  it('superadmin outranks admin, and admin outranks every other role', () => {
    expect(ROLE_RANK.superadmin).toBeGreaterThan(ROLE_RANK.admin);
    for (const r of ROLES.filter((x) => x !== 'superadmin' && x !== 'admin'))
      expect(ROLE_RANK.admin, r).toBeGreaterThan(ROLE_RANK[r]);
  });
});

describe('DOCTOR_ROLES', () => {
  it('are the roles the OP Bill doctor picker offers: doctor and lab technician', () => {
    expect([...DOCTOR_ROLES]).toEqual(['doctor', 'lab_technician']);
  });
});
