import { SEND_TIMEOUT_MS, SendError } from './mail.js';
import type { SmsRow } from './repository.js';

/** An SMS longer than this is cut (two concatenated GSM segments of 153 characters). */
export const SMS_MAX_CHARS = 306;

export interface Sms {
  to: string;
  message: string;
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

/** A template with {to}, {message} and {key} replaced, each value passed through `encode`. */
export function fillTemplate(
  template: string,
  values: { to: string; message: string; key: string | null },
  encode: (v: string) => string,
): string {
  return template
    .replaceAll('{to}', encode(values.to))
    .replaceAll('{message}', encode(values.message))
    .replaceAll('{key}', encode(values.key ?? ''));
}

const jsonString = (v: string) => JSON.stringify(v).slice(1, -1);

/** The HTTP request the gateway is sent for one SMS (exported for the tests of the substitution). */
export function smsRequest(row: SmsRow, sms: Sms): { url: string; init: RequestInit } {
  const values = { to: smsNumber(sms.to), message: sms.message, key: row.api_key };
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

function fetchErrorOf(err: unknown): SendError {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
    return new SendError(`No answer from the SMS gateway within ${SEND_TIMEOUT_MS / 1000} s`, 'ETIMEDOUT');
  const cause = err instanceof Error ? (err.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const message =
    cause && typeof cause.message === 'string' ? cause.message : err instanceof Error ? err.message : String(err);
  const code = cause && typeof cause.code === 'string' ? cause.code : 'ERROR';
  return new SendError(`The SMS gateway could not be reached: ${message}`, code);
}

/**
 * Sends one SMS through the lab's HTTP gateway within SEND_TIMEOUT_MS. A 2xx answer is taken as
 * sent (a gateway's own body is not interpreted); anything else throws a SendError naming the HTTP
 * status and the start of the gateway's answer. Neither the API key nor the number is in the text.
 */
export async function sendSms(row: SmsRow, sms: Sms): Promise<{ status: number; reply: string }> {
  const { url, init } = smsRequest(row, sms);
  const secrets = [row.api_key, smsNumber(sms.to), sms.message];
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(SEND_TIMEOUT_MS) });
  } catch (err) {
    const e = fetchErrorOf(err);
    throw new SendError(redact(e.message, secrets), e.code);
  }
  let text = '';
  try {
    text = (await res.text()).replace(/\s+/g, ' ').trim().slice(0, 200);
  } catch {
    text = '';
  }
  const reply = redact(
    `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${text ? `: ${text}` : ''}`,
    secrets,
  );
  if (!res.ok) throw new SendError(`The SMS gateway answered ${reply}`, `HTTP_${res.status}`, res.status);
  return { status: res.status, reply };
}
