/** The server's session cookie name (src/server/plugins/auth.ts). It is httpOnly, so only its absence is visible here. */
export const SESSION_COOKIE_NAME = 'lims_session';

/** Keys in localStorage/sessionStorage that look like a stored token or user: there should be none. */
export function storedTokenKeys(): string[] {
  const found: string[] = [];
  for (const storage of [window.localStorage, window.sessionStorage]) {
    for (let i = 0; i < storage.length; i += 1) {
      const key = storage.key(i);
      if (key && /token|auth|user|session/i.test(key)) found.push(key);
    }
  }
  return found;
}
