import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError } from '../errors.js';

/** The key file in the data dir: 32 random bytes, base64, readable by the server's user only. */
export const TWO_FACTOR_KEY_FILE = 'two-factor.key';

const VERSION = 'v1';

/**
 * The server cannot read a stored secret: its key is not the one the secret was sealed with (a
 * chain server without the key file of the others, a restore on a machine without the file).
 * Recovery codes still work (they are hashes); an administrator can reset two-factor.
 */
export class TwoFactorKeyError extends DomainError {
  constructor(readonly keyId: string) {
    super(
      503,
      'TWO_FACTOR_KEY',
      'This server cannot check authenticator codes: its two-factor key is not the one your authenticator was set up with. Use a recovery code, or ask an administrator to reset your two-factor sign-in.',
    );
  }
}

/**
 * Seals TOTP secrets for the database (AES-256-GCM), so that a dump or a stolen backup alone does
 * not give them away. The key is loaded (or created) on first use only, so a lab that never turns
 * two-factor on never gets a key file. Each sealed value names the key it was sealed with (the first
 * bytes of the key's SHA-256) and is bound to its user (`context`, the GCM additional data): a secret
 * copied onto another user's row does not open.
 */
export class SecretBox {
  #key: Buffer | null = null;

  private constructor(
    private readonly load: () => Buffer,
    /** Where the key lives, for messages. */
    readonly where: string,
  ) {}

  /** The key in `<data dir>/two-factor.key`, created (mode 600) the first time it is needed. */
  static inDataDir(dir: string): SecretBox {
    const file = join(dir, TWO_FACTOR_KEY_FILE);
    return new SecretBox(() => loadOrCreateKey(file), file);
  }

  /** A key that lives as long as the process: for an app built without a data dir (tests). */
  static inMemory(): SecretBox {
    const key = randomBytes(32);
    return new SecretBox(() => key, 'memory');
  }

  #keyNow(): Buffer {
    this.#key ??= this.load();
    return this.#key;
  }

  /** The first 8 bytes of the key's SHA-256, hex: which key sealed a value. */
  keyId(): string {
    return createHash('sha256').update(this.#keyNow()).digest('hex').slice(0, 16);
  }

  seal(plain: string, context: string): string {
    const key = this.#keyNow();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [
      VERSION,
      this.keyId(),
      iv.toString('base64url'),
      body.toString('base64url'),
      tag.toString('base64url'),
    ].join(':');
  }

  /** The plain text, or TwoFactorKeyError when this key did not seal it (or it was altered). */
  open(sealed: string, context: string): string {
    const [version, keyId, iv, body, tag] = sealed.split(':');
    if (version !== VERSION || !keyId || iv === undefined || body === undefined || tag === undefined)
      throw new TwoFactorKeyError(keyId ?? '');
    if (keyId !== this.keyId()) throw new TwoFactorKeyError(keyId);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#keyNow(), Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new TwoFactorKeyError(keyId);
    }
  }
}

function readKey(file: string): Buffer {
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} is not a lims two-factor key (32 bytes, base64)`);
  return key;
}

/** Reads the key file, or creates it; `wx` makes two servers starting on one data dir agree on one key. */
function loadOrCreateKey(file: string): Buffer {
  try {
    return readKey(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const key = randomBytes(32);
  try {
    writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readKey(file);
    throw err;
  }
}
