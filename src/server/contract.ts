import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import fastJson from 'fast-json-stringify';
import { z } from 'zod';
import { PUBLIC_BODY_LIMIT } from './plugins/request-guards.js';
import {
  isFileResponse,
  type BodyOf,
  type HandlerOutput,
  type ParamsOf,
  type QueryOf,
  type RouteContract,
  type ResponseSpec,
} from '../shared/api/contract.js';

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The request a handler sees: params, query and body already validated by the contract's schemas. */
export type ContractRequest<C extends RouteContract> = FastifyRequest<{
  Params: Parsed<ParamsOf<C>>;
  Querystring: Parsed<QueryOf<C>>;
  Body: Parsed<BodyOf<C>>;
}>;

export type ContractHandler<C extends RouteContract> = (
  req: ContractRequest<C>,
  reply: FastifyReply,
) => Promise<HandlerOutput<C> | FastifyReply>;

/**
 * Registers one route from its contract: validation of params, query and body, the response
 * schema (which also serializes), the access the auth plugin enforces, and the success status.
 * Routes are registered only through here; the route-contract test fails on any other. `hooks`
 * adds a route's own onRequest/preHandler (the portal's session guard) after the access gate.
 */
export function route<C extends RouteContract>(
  app: FastifyInstance,
  contract: C,
  handler: ContractHandler<C>,
  hooks: Pick<RouteOptions, 'onRequest' | 'preHandler'> = {},
): void {
  const status = contract.status ?? 200;
  const response = contract.response as ResponseSpec;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: contract.method,
    url: contract.path,
    schema: {
      ...(contract.params ? { params: contract.params } : {}),
      ...(contract.query ? { querystring: contract.query } : {}),
      ...(contract.body ? { body: emptyBodyAsObject(contract.body) } : {}),
      ...(isFileResponse(response) ? {} : { response: { [status]: response } }),
    },
    config: { access: contract.access, contract },
    ...(contract.bodyLimit !== undefined || contract.access === 'public'
      ? { bodyLimit: contract.bodyLimit ?? PUBLIC_BODY_LIMIT }
      : {}),
    ...hooks,
    handler:
      status === 200
        ? (handler as never)
        : (req: FastifyRequest, reply: FastifyReply) => {
            reply.status(status);
            return (handler as (r: FastifyRequest, p: FastifyReply) => unknown)(req, reply);
          },
  });
}

/**
 * A request sent with no body (`curl -X POST`, a script) is read as an empty object: an action
 * with nothing to say (issue an invoice, release a report) needs none, and a route whose body has
 * required fields answers with each missing field by name rather than "expected object".
 */
function emptyBodyAsObject(schema: z.ZodType): z.ZodType {
  return z.preprocess((v) => (v === undefined || v === null ? {} : v), schema);
}

/** JSON Schema for fast-json-stringify from a zod response schema (draft-7, no $schema key). */
export function responseJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return simplify(json) as Record<string, unknown>;
}

/**
 * Zod writes a nullable integer as anyOf [{integer, safe-integer bounds}, {null}]; fast-json-stringify
 * serializes anyOf by validating each branch at run time. The bounds mean nothing to a serializer, and
 * without them the anyOf is a plain type list (["integer", "null"]) that it writes directly.
 */
function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = simplify(v);
  if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
  if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  const anyOf = out.anyOf as Record<string, unknown>[] | undefined;
  if (anyOf?.every((b) => Object.keys(b).length === 1 && typeof b.type === 'string')) {
    delete out.anyOf;
    out.type = anyOf.map((b) => b.type);
  }
  return out;
}

/** One compiled writer per response schema, shared by every app of the process (tests build many). */
const writers = new WeakMap<z.ZodType, (data: unknown) => string>();

/**
 * Responses are written by fast-json-stringify from the contract's schema: only the fields the
 * schema names are sent (nothing leaks that the contract does not declare), and writing a known
 * shape is faster than JSON.stringify. Validation of what the handler returned is left to the types.
 *
 * A writer is compiled on the route's first response, not when the route is registered: compiling
 * the ~300 response schemas up front took 1-3 s of CPU at every start (every `lims serve` and every
 * test lab), for routes most processes never call. test/api/route-contracts.test.ts compiles every
 * schema once, so a schema fast-json-stringify cannot take still fails a test, not a clinic.
 */
export const responseSerializerCompiler = ({ schema }: { schema: z.ZodType }) => {
  let stringify = writers.get(schema);
  return (data: unknown) => {
    if (!stringify) {
      stringify = compileResponseWriter(schema);
      writers.set(schema, stringify);
    }
    return stringify(data);
  };
};

/** The fast-json-stringify writer of one response schema. */
export function compileResponseWriter(schema: z.ZodType): (data: unknown) => string {
  return fastJson(responseJsonSchema(schema));
}
