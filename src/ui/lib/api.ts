import type { ApiErrorBody } from '@shared/schemas/common';
import { routeUrl, type CallInput, type CallOutput, type QueryValue, type RouteContract } from '@shared/api/contract';

/**
 * The one way the UI talks to the server. Same-origin cookies carry the session; bodies are JSON
 * (the server refuses other content types on state-changing requests as CSRF protection).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly details: { path: string; message: string }[];
  /** POSSIBLE_DUPLICATE: the patients already registered who may be this one (unparsed; see lib/patients/duplicates). */
  readonly candidates: unknown[];

  constructor(
    status: number,
    message: string,
    code?: string,
    details: { path: string; message: string }[] = [],
    candidates: unknown[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.candidates = candidates;
  }
}

/** Message for any thrown value, for toasts and error panels. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === 'string' ? err : 'Something went wrong';
}

/** The message of the first field the server named (a 400), else the whole message: for a message beside one field. */
export function fieldErrorMessage(err: unknown): string {
  if (err instanceof ApiError && err.details[0]) return err.details[0].message;
  return errorMessage(err);
}

let onUnauthorized: (() => void) | null = null;

/** queryClient.ts registers this: a 401 anywhere means the session ended, so the session is re-checked. */
export function setUnauthorizedHandler(fn: () => void): void {
  onUnauthorized = fn;
}

/** Builds "/samples?view=3", leaving out empty values (same rule as the API URLs, routeUrl). */
export function withQuery(path: string, query?: Record<string, QueryValue>): string {
  return routeUrl(path, undefined, query);
}

interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
}

function isErrorBody(v: unknown): v is ApiErrorBody {
  return (
    typeof v === 'object' && v !== null && 'message' in v && typeof (v as { message: unknown }).message === 'string'
  );
}

async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'Cannot reach the lims server. Check that it is running and your network connection.');
  }
  const text = await res.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!res.ok) {
    // /api/auth/* answers 401 for a wrong password or "not signed in"; those are not "session ended".
    if (res.status === 401 && !path.startsWith('/api/auth/')) onUnauthorized?.();
    if (isErrorBody(data))
      throw new ApiError(res.status, data.message, data.code, data.details ?? [], data.candidates ?? []);
    throw new ApiError(res.status, `API call failed: ${res.status} ${res.statusText}`);
  }
  return data as T;
}

/**
 * Calls a route by its contract (src/shared/api): the URL comes from the contract's path and the
 * params, the body and the answer are typed by its schemas.
 */
export function call<C extends RouteContract>(
  contract: C,
  input: CallInput<C>,
  signal?: AbortSignal,
): Promise<CallOutput<C>> {
  const { params, query, body } = input as { params?: object; query?: object; body?: unknown };
  return request<CallOutput<C>>(contract.method, routeUrl(contract.path, params, query), { body, signal });
}

/** URL of a route that answers a file (CSV, PDF), for links, downloads and print frames. */
export function contractUrl<C extends RouteContract>(
  contract: C,
  input: Omit<CallInput<C>, 'body'> & { query?: Record<string, unknown> },
): string {
  const { params, query } = input as { params?: object; query?: object };
  return routeUrl(contract.path, params, query);
}

/**
 * Sends a file as the raw body of a route whose contract says `upload` (the data screens): the
 * server admits a non-JSON body only with the header X-Lims-Upload, which no cross-site form can set.
 */
export async function uploadFile<C extends RouteContract>(
  contract: C,
  input: Omit<CallInput<C>, 'body'> & { query?: Record<string, unknown> },
  file: Blob,
  signal?: AbortSignal,
): Promise<CallOutput<C>> {
  const { params, query } = input as { params?: object; query?: object };
  let res: Response;
  try {
    res = await fetch(routeUrl(contract.path, params, query), {
      method: contract.method,
      headers: { accept: 'application/json', 'content-type': 'application/octet-stream', 'x-lims-upload': '1' },
      credentials: 'same-origin',
      body: file,
      signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'Cannot reach the lims server. Check that it is running and your network connection.');
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!res.ok) {
    if (res.status === 401) onUnauthorized?.();
    if (isErrorBody(data)) throw new ApiError(res.status, data.message, data.code, data.details ?? []);
    throw new ApiError(res.status, `Upload failed: ${res.status} ${res.statusText}`);
  }
  return data as CallOutput<C>;
}

/**
 * Calls a route that answers a file for a JSON body (the report link page's PDF: the token and the
 * answer travel in the body, never in a URL): the file as a Blob, a refusal as an ApiError.
 */
export async function callForFile<C extends RouteContract>(contract: C, input: CallInput<C>): Promise<Blob> {
  const { params, query, body } = input as { params?: object; query?: object; body?: unknown };
  let res: Response;
  try {
    res = await fetch(routeUrl(contract.path, params, query), {
      method: contract.method,
      headers: { accept: 'application/pdf, application/json', 'content-type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'Cannot reach the lims server. Check your network connection.');
  }
  if (res.ok) return res.blob();
  const text = await res.text();
  let data: unknown = null;
  try {
    data = JSON.parse(text);
  } catch {
    data = null;
  }
  if (isErrorBody(data)) throw new ApiError(res.status, data.message, data.code, data.details ?? []);
  throw new ApiError(res.status, `API call failed: ${res.status} ${res.statusText}`);
}
