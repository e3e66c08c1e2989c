import type { PasswordPolicy } from './constants.js';

/** A new lab's policy, and the one its first administrator's password is checked against. */
export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = 'strong';

/**
 * The lab's password policy (System Settings), checked wherever a password is set or
 * reset: by the server on every route and command, and by the screens before they send. Each
 * rule broken is named in words staff understand. docs/security.md lists the three policies.
 */
export interface PolicyRule {
  /** Shown under the password field: "At least 10 characters". */
  label: string;
  /** The message when the rule is broken. */
  message: string;
  test: (password: string, who: { email?: string; name?: string }) => boolean;
}

const length = (n: number): PolicyRule => ({
  label: `At least ${n} characters`,
  message: `Password must be at least ${n} characters`,
  test: (p) => [...p].length >= n,
});

const letter: PolicyRule = {
  label: 'A letter',
  message: 'Password must contain a letter',
  test: (p) => /\p{L}/u.test(p),
};

const digit: PolicyRule = {
  label: 'A digit',
  message: 'Password must contain a digit (0-9)',
  test: (p) => /\d/.test(p),
};

const upper: PolicyRule = {
  label: 'An upper-case letter',
  message: 'Password must contain an upper-case letter',
  test: (p) => /\p{Lu}/u.test(p),
};

const lower: PolicyRule = {
  label: 'A lower-case letter',
  message: 'Password must contain a lower-case letter',
  test: (p) => /\p{Ll}/u.test(p),
};

const symbol: PolicyRule = {
  label: 'A symbol (such as ! # - _ @)',
  message: 'Password must contain a symbol (such as ! # - _ @)',
  test: (p) => /[^\p{L}\p{N}\s]/u.test(p),
};

/** The part of the email before @, or a word of the name, of 3 letters or more, inside the password. */
const notPersonal: PolicyRule = {
  label: 'Not your name or email',
  message: 'Password must not contain your name or the name part of your email',
  test: (p, who) => {
    const lower = p.toLowerCase();
    const words = [...(who.email ? [who.email.split('@')[0]!] : []), ...(who.name ? who.name.split(/\s+/) : [])]
      .map((w) => w.toLowerCase())
      .filter((w) => w.length >= 3);
    return !words.some((w) => lower.includes(w));
  },
};

export const PASSWORD_POLICY_RULES: Record<PasswordPolicy, PolicyRule[]> = {
  basic: [length(8)],
  strong: [length(10), letter, digit],
  'very-strong': [length(12), upper, lower, digit, symbol, notPersonal],
};

/**
 * Each policy in words, the one sentence every place that asks for a password shows (the setup
 * prompt and --help, the browser wizard, the user forms): "at least 10 characters, with a letter
 * and a digit".
 */
export const PASSWORD_RULE_TEXT: Record<PasswordPolicy, string> = {
  basic: 'at least 8 characters',
  strong: 'at least 10 characters, with a letter and a digit',
  'very-strong': 'at least 12 characters, with upper and lower case, a digit and a symbol, not your name',
};

export const PASSWORD_POLICY_LABELS: Record<PasswordPolicy, string> = {
  basic: `Basic: ${PASSWORD_RULE_TEXT.basic}`,
  strong: `Strong: ${PASSWORD_RULE_TEXT.strong}`,
  'very-strong': `Very strong: ${PASSWORD_RULE_TEXT['very-strong']}`,
};

/** The messages of the rules the password breaks; empty when it passes. */
export function passwordProblems(
  policy: PasswordPolicy,
  password: string,
  who: { email?: string; name?: string } = {},
): string[] {
  return PASSWORD_POLICY_RULES[policy].filter((r) => !r.test(password, who)).map((r) => r.message);
}
