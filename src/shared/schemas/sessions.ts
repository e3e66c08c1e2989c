import { z } from 'zod';

/** One of the signed-in user's own open sessions (My sessions, on the account screen). */
export const ownSessionSchema = z.object({
  /** Names the session for ending it; not the cookie and not what the database keys it by. */
  id: z.string(),
  started_at: z.string(),
  /** Recorded at most once a minute. */
  last_seen_at: z.string(),
  /** The 24-hour end of the session, whatever the activity. */
  expires_at: z.string(),
  /** The address the session was started from, as the server saw it. */
  ip_address: z.string().nullable(),
  /** The browser's user agent as sent when the session started (up to 300 characters). */
  user_agent: z.string().nullable(),
  /** The session of the request that asked. */
  current: z.boolean(),
});
export type OwnSession = z.infer<typeof ownSessionSchema>;

/** A session named in a path (the user's own, or anyone's on the Activity Monitor). */
export const sessionIdParam = z.object({
  id: z.string().regex(/^[0-9a-f]{32}$/, 'Not a session id'),
});
