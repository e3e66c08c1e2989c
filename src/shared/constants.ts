/** Lists and constants named by the specification (documents 000 and 001). */
export const GENDERS = ['Male', 'Female', 'Other'] as const;
export type Gender = (typeof GENDERS)[number];

export const BLOOD_GROUPS = ['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-'] as const;
export const EMERGENCY_RELATIONS = ['Spouse', 'Parent', 'Child', 'Sibling', 'Friend', 'Other'] as const;
export const MEMBERSHIP_TYPES = ['none', 'basic', 'premium', 'corporate'] as const;
export type MembershipType = (typeof MEMBERSHIP_TYPES)[number];

export const PATIENT_PAGE_SIZES = [5, 10, 20, 50] as const;
export const DEFAULT_PATIENT_PAGE_SIZE = 10;

export const AGE_RANGES = ['0-18', '19-35', '36-50', '51-65', '65+'] as const;
export const PATIENT_SEARCH_TYPES = ['all', 'name', 'patient_id', 'mobile', 'email'] as const;

export const SPECIALIZATIONS = ['Internal Medicine', 'Cardiology', 'Neurology', 'Pediatrics', 'Orthopedics'] as const;

export const TIMEZONES = ['Asia/Kolkata', 'UTC', 'America/New_York', 'Europe/London'] as const;
export const DATE_FORMATS = ['DD/MM/YYYY', 'MM/DD/YYYY', 'YYYY-MM-DD'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
export const CURRENCIES = ['INR', 'USD', 'EUR', 'GBP'] as const;
export const SESSION_TIMEOUTS = [15, 30, 60, 120] as const;
export const PASSWORD_POLICIES = ['basic', 'strong', 'very-strong'] as const;
export type PasswordPolicy = (typeof PASSWORD_POLICIES)[number];
export const BACKUP_FREQUENCIES = ['hourly', 'daily', 'weekly', 'monthly'] as const;
export type BackupFrequency = (typeof BACKUP_FREQUENCIES)[number];
export const BACKUP_RETENTIONS = [7, 30, 90, 365] as const;

export const AUDIT_ACTIONS = ['login', 'logout', 'create', 'update', 'delete', 'export', 'import'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Session limits: absolute lifetime (spec 9: 24 hours) and login throttling (spec 9: 5 attempts). */
export const SESSION_LIFETIME_HOURS = 24;
export const LOGIN_MAX_FAILURES = 5;
/** The lab's "login attempts" setting (maxLoginAttempts): failed sign-ins per account and address before the lockout. */
export const LOGIN_ATTEMPTS_MIN = 3;
export const LOGIN_ATTEMPTS_MAX = 10;
export const LOGIN_LOCKOUT_MINUTES = 15;

/** How a patient is addressed (registration; printed before the name where the lab wants it). */
export const PATIENT_TITLES = ['Mr', 'Mrs', 'Ms', 'Miss', 'Master', 'Baby', 'Dr'] as const;

/** How often the top bar's bell asks for unread notifications (the Notifications screen follows it). */
export const BELL_POLL_MS = 20_000;
/** How often the Enhanced Dashboard reads the live board again by itself. */
export const LIVE_REFRESH_MS = 15_000;
/** How often the System screen's background jobs table reads the scheduler again by itself. */
export const JOBS_REFRESH_MS = 15_000;
