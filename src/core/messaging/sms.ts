import { SEND_TIMEOUT_MS, SendError } from './mail.js';
import type { SmsRow } from './repository.js';
import { networkReason, sendHttp } from '../net/http-out.js';
import type { OutboundPolicy } from '../net/outbound.js';

/** An SMS longer than this is cut (two concatenated GSM segments of 153 characters). */
export const SMS_MAX_CHARS = 306;

export interface Sms {
  to: string;
  message: string;
  /** lims's reference for {ref}, which the gateway's delivery report names. */
  ref?: string;
}

/** A phone number as the gateway gets it for {to}: its digits, with a leading + kept. */
export function smsNumber(phone: string): string {
  const trimmed = phone.trim();
  return `${trimmed.startsWith('+') ? '+' : ''}${trimmed.replace(/\D/g, '')}`;
}

/** The text cut to SMS_MAX_CHARS, ending with an ellipsis when cut. */
export function smsText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= SMS_MAX_CHARS ? flat : `${flat.slice(0, SMS_MAX_CHARS - 1).trimEnd()}…`;
}

/** A template with {to}, {message}, {key} and {ref} replaced, each value passed through `encode`. */
export function fillTemplate(
  template: string,
  values: { to: string; message: string; key: string | null; ref?: string | undefined },
  encode: (v: string) => string,
): string {
  return template
    .replaceAll('{to}', encode(values.to))
    .replaceAll('{message}', encode(values.message))
    .replaceAll('{key}', encode(values.key ?? ''))
    .replaceAll('{ref}', encode(values.ref ?? ''));
}

const jsonString = (v: string) => JSON.stringify(v).slice(1, -1);

/** The HTTP request the gateway is sent for one SMS (exported for the tests of the substitution). */
export function smsRequest(row: SmsRow, sms: Sms): { url: string; init: RequestInit } {
  const values = { to: smsNumber(sms.to), message: sms.message, key: row.api_key, ref: sms.ref };
  const url = fillTemplate(row.url_template, values, encodeURIComponent);
  const headers: Record<string, string> = {};
  if (row.header_name && row.api_key) headers[row.header_name] = row.api_key;
  let body: string | undefined;
  if (row.method === 'POST' && row.body_template) {
    const json = row.body_type === 'json';
    body = fillTemplate(row.body_template, values, json ? jsonString : encodeURIComponent);
    headers['content-type'] = json ? 'application/json' : 'application/x-www-form-urlencoded';
  }
  return { url, init: { method: row.method, headers, body } };
}

/** The text with every secret (and its URL-encoded form) replaced, for what is shown or stored. */
export function redact(text: string, secrets: (string | null | undefined)[]): string {
  let out = text;
  for (const s of secrets) {
    if (!s || s.length < 3) continue;
    for (const form of new Set([s, encodeURIComponent(s)])) out = out.split(form).join('(hidden)');
  }
  return out;
}

/** The outbound policy of an SMS gateway: a service on the internet, unless the operator allows more. */
export const smsPolicy = (allowPrivate: boolean): OutboundPolicy => ({ kind: 'internet', allowPrivate });

/**
 * Sends one SMS through the lab's HTTP gateway within SEND_TIMEOUT_MS. A 2xx answer is taken as
 * sent; anything else throws a SendError in fixed words ("the SMS gateway answered HTTP 500",
 * "connection refused", "address not allowed: loopback"). A redirect is not followed, and the
 * gateway's body is never read into what is shown or stored: the URL is the lab's, the answer may
 * come from anywhere. Neither the API key nor the number is in the text.
 */
export async function sendSms(
  row: SmsRow,
  sms: Sms,
  opts: { allowPrivate: boolean },
): Promise<{ status: number; reply: string }> {
  const { url, init } = smsRequest(row, sms);
  let status: number;
  try {
    status = await sendHttp(url, {
      method: String(init.method),
      headers: init.headers as Record<string, string>,
      body: init.body as string | undefined,
      timeoutMs: SEND_TIMEOUT_MS,
      policy: smsPolicy(opts.allowPrivate),
    });
  } catch (err) {
    const e = networkReason(err, SEND_TIMEOUT_MS);
    throw new SendError(`The SMS gateway could not be reached: ${e.message}`, e.code);
  }
  const reply = `HTTP ${status}`;
  if (status >= 300 && status < 400)
    throw new SendError(
      `The SMS gateway answered ${reply}, a redirect, which is not followed`,
      `HTTP_${status}`,
      status,
    );
  if (status < 200 || status > 299) throw new SendError(`The SMS gateway answered ${reply}`, `HTTP_${status}`, status);
  return { status, reply };
}
