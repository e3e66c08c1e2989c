import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import net from 'node:net';
import type { SmtpRow } from './repository.js';
import { OutboundRefused, resolveChecked, type OutboundPolicy } from '../net/outbound.js';
import { networkReason } from '../net/http-out.js';

/** How long one message may take, connection, greeting and every reply included. */
export const SEND_TIMEOUT_MS = 10_000;

export interface Email {
  to: string;
  subject: string;
  text: string;
  /** Files sent with it (a report PDF, when the lab sends reports attached). */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
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

/** The outbound policy of a mail server: the internet or the clinic's network, unless the operator allows more. */
export const smtpPolicy = (allowPrivate: boolean): OutboundPolicy => ({ kind: 'lan', allowPrivate });

/** Connects to `address` (the checked one the host resolved to), naming the host for TLS. */
function transportOptions(row: SmtpRow, address: string): SMTPTransport.Options {
  return {
    host: address,
    port: row.port,
    servername: net.isIP(row.host) ? undefined : row.host,
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
 * What went wrong, in fixed words: a mail server's reply code at most, never its text or banner
 * (the host and port are the lab's, whatever answers there must not be shown back).
 */
function mailReason(err: unknown): SendError {
  const code = errorCode(err);
  const smtp = /^SMTP_(\d{3})$/.exec(code);
  if ((err as { code?: unknown } | null)?.code === 'EAUTH')
    return new SendError('The mail server refused the user name or password', 'EAUTH');
  if (smtp) return new SendError(`The mail server answered ${smtp[1]}`, code);
  if (code === 'ETLS') return new SendError('The secure (TLS) connection to the mail server failed', code);
  if (code === 'EPROTOCOL' || code === 'EENVELOPE')
    return new SendError('What answered did not behave as a mail server', code);
  if (code === 'ETIMEDOUT' || code === 'ECONNECTION' || code === 'ESOCKET' || /^E[A-Z_]+$/.test(code)) {
    const r = networkReason({ code }, SEND_TIMEOUT_MS);
    return new SendError(`The mail server could not be reached: ${r.message}`, code);
  }
  return new SendError('The mail server could not be reached: the connection failed', code);
}

/**
 * Sends one plain-text email through the lab's mail server, within SEND_TIMEOUT_MS overall. The
 * host is resolved and its address checked against the outbound policy, then that address is
 * dialled (TLS still checks the certificate against the host name). Answers the server's reply
 * code ("250"); throws a SendError in fixed words otherwise (see mailReason).
 */
export async function sendEmail(row: SmtpRow, email: Email, opts: { allowPrivate: boolean }): Promise<string> {
  let address: string;
  try {
    address = await resolveChecked(row.host, smtpPolicy(opts.allowPrivate));
  } catch (err) {
    if (err instanceof OutboundRefused)
      throw new SendError(`The mail server may not be used: ${err.message}`, err.code);
    throw mailReason(err);
  }
  const transport = nodemailer.createTransport(transportOptions(row, address));
  let timer: NodeJS.Timeout | undefined;
  try {
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
        SEND_TIMEOUT_MS + 1_000,
      );
    });
    const info = await Promise.race([
      transport.sendMail({
        from: row.from_name ? { name: row.from_name, address: row.from_address } : row.from_address,
        to: email.to,
        subject: email.subject,
        text: email.text,
        ...(email.attachments ? { attachments: email.attachments } : {}),
      }),
      deadline,
    ]);
    const reply = /^\d{3}/.exec(String(info.response ?? ''));
    return `The mail server accepted the message${reply ? ` (${reply[0]})` : ''}`;
  } catch (err) {
    throw mailReason(err);
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}
