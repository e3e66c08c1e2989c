import type { z } from 'zod';
import type { Permission } from '../roles.js';

/**
 * One route, declared once: the server registers it from this (src/server/contract.ts), the UI
 * calls it through one typed client (src/ui/lib/api.ts `call`), tests and the CLI use its types.
 * The response schema is also the serializer: a field it does not name never leaves the server.
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call a route: a permission (or several, all required), any signed-in user, or anyone. */
export type RouteAccess = Permission | readonly Permission[] | 'authenticated' | 'public';

/** A response that is a file (PDF, CSV, image) rather than JSON. */
export interface FileResponse {
  readonly file: string;
}

export type ResponseSpec = z.ZodType | FileResponse;

export interface RouteContract<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends ResponseSpec = ResponseSpec,
> {
  readonly method: Method;
  /** Fastify style, e.g. "/api/patients/:id". */
  readonly path: string;
  readonly access: RouteAccess;
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  readonly response: R;
  /** The success status; 200 unless said (201 for creations). */
  readonly status?: number;
  /** Largest request body in bytes; public routes default to 16 KiB, others to the server's 2 MiB. */
  readonly bodyLimit?: number;
  /**
   * A request the UI makes by itself on a timer (the notification bell): answered for a live
   * session without counting as the user's activity, so the idle timeout still ends a session left
   * open on an unattended screen.
   */
  readonly background?: boolean;
  /**
   * The body is a file sent as application/octet-stream (the data screens' uploads), streamed to
   * disk by the handler. The CSRF rule admits it only with the header X-Lims-Upload: 1, which a
   * cross-site form cannot send and a cross-site script cannot send without a CORS grant.
   */
  readonly upload?: boolean;
}

/** Declares a route; the identity function keeps the literal types of its schemas. */
export function defineRoute<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends ResponseSpec = ResponseSpec,
>(contract: RouteContract<P, Q, B, R>): RouteContract<P, Q, B, R> {
  return contract;
}

/** A file response of this content type (the body is a Buffer or a stream). */
export const fileResponse = (contentType: string): FileResponse => ({ file: contentType });

export function isFileResponse(r: ResponseSpec): r is FileResponse {
  return typeof (r as FileResponse).file === 'string';
}

type In<S> = S extends z.ZodType ? z.input<S> : never;
type Out<S> = S extends z.ZodType ? z.output<S> : never;

/* eslint-disable @typescript-eslint/no-explicit-any -- inference positions only */
export type ParamsOf<C> = C extends RouteContract<infer P, any, any, any> ? P : never;
export type QueryOf<C> = C extends RouteContract<any, infer Q, any, any> ? Q : never;
export type BodyOf<C> = C extends RouteContract<any, any, infer B, any> ? B : never;
export type ResponseOf<C> = C extends RouteContract<any, any, any, infer R> ? R : never;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** What a caller passes: params, query and body, each only where the route has one. */
export type CallInput<C extends RouteContract> = (ParamsOf<C> extends z.ZodType
  ? { params: In<ParamsOf<C>> }
  : { params?: undefined }) &
  (QueryOf<C> extends z.ZodType ? { query?: In<QueryOf<C>> } : { query?: undefined }) &
  (BodyOf<C> extends z.ZodType ? { body: In<BodyOf<C>> } : { body?: undefined });

/** What a caller gets back (the parsed JSON). */
export type CallOutput<C extends RouteContract> = ResponseOf<C> extends z.ZodType ? Out<ResponseOf<C>> : never;

/** What a handler may return: the response schema's input (it is serialized through the schema). */
export type HandlerOutput<C extends RouteContract> = ResponseOf<C> extends z.ZodType ? In<ResponseOf<C>> : unknown;

export type QueryValue = string | number | boolean | null | undefined;

/** The concrete URL of a route: ":id" filled from params, query appended without empty values. */
export function routeUrl(path: string, params?: object, query?: object): string {
  let url = path;
  if (params) {
    url = path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
      const v = (params as Record<string, unknown>)[name];
      if (v === undefined || v === null || v === '') throw new Error(`routeUrl: ${path} needs ${name}`);
      return encodeURIComponent(String(v));
    });
  }
  if (!query) return url;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query as Record<string, QueryValue>)) {
    if (v === undefined || v === null || v === '') continue;
    search.set(k, String(v));
  }
  const qs = search.toString();
  return qs ? `${url}?${qs}` : url;
}
