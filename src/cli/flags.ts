import { InvalidArgumentError } from 'commander';
import type { z } from 'zod';
import { UsageError } from './errors.js';

/**
 * Validates flag values with the same zod schema the API uses, and reports each problem by the
 * flag the person typed: `--admin-email: Enter a valid administrator email address (got "x")`.
 * Secret values (passwords) are never echoed back.
 */
export function parseFlags<S extends z.ZodType>(
  schema: S,
  raw: Record<string, unknown>,
  flagOf: Readonly<Record<string, string>>,
  secret: ReadonlySet<string> = new Set(),
): z.infer<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const key = String(issue.path[0] ?? '');
    const flag = flagOf[key] ?? key;
    const value = raw[key];
    const got = value === undefined || value === null || secret.has(key) ? '' : ` (got ${JSON.stringify(value)})`;
    return `${flag}: ${issue.message}${got}`;
  });
  throw new UsageError(problems.join('; '));
}

/** For prompts: the field's own schema decides, and its message is shown under the prompt. */
export function validatorFor(schema: z.ZodType): (value: string) => true | string {
  return (value) => {
    const r = schema.safeParse(value);
    return r.success ? true : (r.error.issues[0]?.message ?? 'Invalid value');
  };
}

/** Commander parser for --port: commander names the flag and the value, we say what is allowed. */
export function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < 1 || n > 65535) {
    throw new InvalidArgumentError('The port must be a whole number from 1 to 65535.');
  }
  return n;
}

/** Commander parser for a size in whole megabytes (1 MB = 1,048,576 bytes) from 1 to `maxMb`. */
export function parseMegabytes(maxMb: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < 1 || n > maxMb)
      throw new InvalidArgumentError(`A size in whole megabytes from 1 to ${maxMb}.`);
    return n;
  };
}

/** Commander parser refusing an empty value (an empty --data-dir would silently mean the current directory). */
export function nonEmpty(message: string): (value: string) => string {
  return (value) => {
    if (value.trim() === '') throw new InvalidArgumentError(message);
    return value;
  };
}

/** Prompts need a person at a terminal on both ends; scripts and CI get flags instead. */
export function isInteractive(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY);
}
