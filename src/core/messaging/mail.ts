import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { SmtpRow } from './repository.js';

/** How long one message may take, connection, greeting and every reply included. */
export const SEND_TIMEOUT_MS = 10_000;

export interface Email {
  to: string;
  subject: string;
  text: string;
}

/** An error whose message is safe to show to the lab's administrator and to store (never to log). */
export class SendError extends Error {
  constructor(
    message: string,
    /** A short code for the log line: ECONNREFUSED, EAUTH, ETIMEDOUT, HTTP_500... never an address. */
    readonly code: string,
    /** The SMS gateway's HTTP status, when it answered. */
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

function transportOptions(row: SmtpRow): SMTPTransport.Options {
  return {
    host: row.host,
    port: row.port,
    // none: plain text even if the server offers STARTTLS; starttls: refuse to go on without it.
    secure: row.security === 'tls',
    requireTLS: row.security === 'starttls',
    ignoreTLS: row.security === 'none',
    auth: row.username ? { user: row.username, pass: row.password ?? '' } : undefined,
    connectionTimeout: SEND_TIMEOUT_MS,
    greetingTimeout: SEND_TIMEOUT_MS,
    socketTimeout: SEND_TIMEOUT_MS,
    dnsTimeout: SEND_TIMEOUT_MS,
    logger: false,
    debug: false,
  };
}

/** The code of a nodemailer or socket error, for the log line. */
export function errorCode(err: unknown): string {
  const e = err as { code?: unknown; originalCode?: unknown; responseCode?: unknown } | null;
  if (e && typeof e.responseCode === 'number') return `SMTP_${e.responseCode}`;
  // nodemailer wraps a socket's error (ESOCKET) and keeps its own code (ECONNREFUSED) beside it.
  if (e && typeof e.originalCode === 'string') return e.originalCode;
  if (e && typeof e.code === 'string') return e.code;
  return 'ERROR';
}

/**
 * Sends one plain-text email through the lab's mail server, within SEND_TIMEOUT_MS overall. Answers
 * the server's final reply ("250 2.0.0 OK queued as ..."); throws a SendError with the server's
 * reply or the socket's error otherwise (connection refused, authentication failed, timed out).
 */
export async function sendEmail(row: SmtpRow, email: Email): Promise<string> {
  const transport = nodemailer.createTransport(transportOptions(row));
  let timer: NodeJS.Timeout | undefined;
  try {
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new SendError(`No answer from ${row.host}:${row.port} within ${SEND_TIMEOUT_MS / 1000} s`, 'ETIMEDOUT'),
          ),
        SEND_TIMEOUT_MS + 1_000,
      );
    });
    const info = await Promise.race([
      transport.sendMail({
        from: row.from_name ? { name: row.from_name, address: row.from_address } : row.from_address,
        to: email.to,
        subject: email.subject,
        text: email.text,
      }),
      deadline,
    ]);
    return info.response;
  } catch (err) {
    if (err instanceof SendError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new SendError(message, errorCode(err));
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}
