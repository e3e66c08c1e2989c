import { createHmac, timingSafeEqual } from 'node:crypto';
import { networkReason, requestHttp } from '../net/http-out.js';
import type { OutboundPolicy } from '../net/outbound.js';
import { SendError } from '../messaging/service.js';

/**
 * The WhatsApp Business Cloud API: a template message whose one body parameter is the report's
 * link (Meta only lets a business start a conversation with an approved template), and the check
 * of the status webhooks' X-Hub-Signature-256. The base URL is the lab's (Meta's Graph API by
 * default; a local fake in the tests).
 */

/** A send gives up after this long; the sender retries later. */
export const WHATSAPP_TIMEOUT_MS = 10_000;

/** The Cloud API is on the internet, unless the server's operator allows a private address. */
export const whatsappPolicy = (allowPrivate: boolean): OutboundPolicy => ({ kind: 'internet', allowPrivate });

export interface WhatsappAccount {
  baseUrl: string;
  phoneNumberId: string;
  token: string;
  template: string;
  language: string;
}

/** The number as the Cloud API takes it: digits only, with India's 91 before a bare 10-digit mobile. */
export function whatsappNumber(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.length === 10 ? `91${digits}` : digits;
}

/** The request body of a template message to `to` with these components (its parameters). */
function templateMessage(account: WhatsappAccount, to: string, components: object[]) {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: whatsappNumber(to),
    type: 'template',
    template: { name: account.template, language: { code: account.language }, components },
  };
}

/** The request body of a template message carrying `link` as its one body parameter. */
export function templateBody(account: WhatsappAccount, to: string, link: string) {
  return templateMessage(account, to, [{ type: 'body', parameters: [{ type: 'text', text: link }] }]);
}

/**
 * The body of an authentication template message carrying a one-time code: Meta's authentication
 * templates take the code as the body's parameter and again as the copy-code button's.
 */
export function codeTemplateBody(account: WhatsappAccount, to: string, code: string) {
  return templateMessage(account, to, [
    { type: 'body', parameters: [{ type: 'text', text: code }] },
    { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: code }] },
  ]);
}

/** Sends the report template message carrying `link`; answers the message id (wamid). */
export function sendWhatsapp(
  account: WhatsappAccount,
  to: string,
  link: string,
  opts: { allowPrivate: boolean },
): Promise<string> {
  return postMessage(account, templateBody(account, to, link), opts);
}

/** Sends a one-time code by the account's authentication template; answers the message id. */
export function sendWhatsappCode(
  account: WhatsappAccount,
  to: string,
  code: string,
  opts: { allowPrivate: boolean },
): Promise<string> {
  return postMessage(account, codeTemplateBody(account, to, code), opts);
}

/**
 * Posts a message; answers the message id (wamid) the status webhooks will name. Any failure is a
 * SendError in fixed words with a code (HTTP_400, ECONNREFUSED): never the API's own text, which
 * may quote the number.
 */
async function postMessage(account: WhatsappAccount, body: object, opts: { allowPrivate: boolean }): Promise<string> {
  const url = `${account.baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(account.phoneNumberId)}/messages`;
  let answer: { status: number; body: string };
  try {
    answer = await requestHttp(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      timeoutMs: WHATSAPP_TIMEOUT_MS,
      policy: whatsappPolicy(opts.allowPrivate),
      maxBody: 16_384,
    });
  } catch (err) {
    const e = networkReason(err, WHATSAPP_TIMEOUT_MS);
    throw new SendError(`The WhatsApp Cloud API could not be reached: ${e.message}`, e.code);
  }
  if (answer.status < 200 || answer.status > 299)
    throw new SendError(
      `The WhatsApp Cloud API answered HTTP ${answer.status}`,
      `HTTP_${answer.status}`,
      answer.status,
    );
  let id: unknown;
  try {
    id = (JSON.parse(answer.body) as { messages?: { id?: unknown }[] }).messages?.[0]?.id;
  } catch {
    id = undefined;
  }
  if (typeof id !== 'string' || !id || id.length > 200)
    throw new SendError('The WhatsApp Cloud API answered without a message id', 'NO_MESSAGE_ID', answer.status);
  return id;
}

/** Whether `header` (X-Hub-Signature-256: "sha256=<hex>") is the HMAC of the raw body with the app secret. */
export function signatureValid(secret: string, body: Buffer, header: string | undefined): boolean {
  if (!header || !header.startsWith('sha256=')) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(body).digest('hex'));
  const given = Buffer.from(header.slice('sha256='.length).toLowerCase());
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export interface WhatsappStatus {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  timestamp: string | null;
}

/** The statuses a webhook call carries (entry[].changes[].value.statuses[]); anything else is ignored. */
export function statusesOf(payload: unknown): WhatsappStatus[] {
  const out: WhatsappStatus[] = [];
  const entries = (payload as { entry?: unknown })?.entry;
  if (!Array.isArray(entries)) return out;
  for (const entry of entries) {
    const changes = (entry as { changes?: unknown })?.changes;
    if (!Array.isArray(changes)) continue;
    for (const change of changes) {
      const statuses = (change as { value?: { statuses?: unknown } })?.value?.statuses;
      if (!Array.isArray(statuses)) continue;
      for (const s of statuses) {
        const v = s as { id?: unknown; status?: unknown; timestamp?: unknown };
        if (typeof v.id !== 'string') continue;
        if (v.status !== 'sent' && v.status !== 'delivered' && v.status !== 'read' && v.status !== 'failed') continue;
        const ts = typeof v.timestamp === 'string' && /^\d{1,12}$/.test(v.timestamp) ? v.timestamp : null;
        out.push({ id: v.id, status: v.status, timestamp: ts });
      }
    }
  }
  return out;
}
