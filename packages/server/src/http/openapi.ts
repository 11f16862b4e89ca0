// The OpenAPI 3.1 document, generated from the sdk's zod schemas that routes register here as they are mounted.
import { z } from 'zod';
import { ErrorBody } from '@kernelforge/sdk';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteDoc {
  method: HttpMethod;
  /** The full path; Hono's `:id` or OpenAPI's `{id}` both work. */
  path: string;
  summary: string;
  tags?: string[];
  /** Who may call it: documented as the bearer security scheme unless 'none'. */
  auth?: 'none' | 'user' | 'superuser' | 'runner';
  request?: {
    body?: z.ZodType;
    /** Form data (urlencoded or multipart), e.g. password login. */
    form?: z.ZodType;
    query?: z.ZodType;
    params?: z.ZodType;
  };
  /** The success body; null for an empty one (204). */
  response?: z.ZodType | null;
  /** Success status, 200 unless told. */
  status?: number;
  /** Non-JSON successes: `text/event-stream` for SSE, `text/plain` for metrics. */
  contentType?: string;
  /** Error statuses worth listing (401/403/422 are added from `auth` and `request`). */
  errors?: number[];
}

const routes = new Map<string, RouteDoc>();

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)(\{[^}]*\})?/g, '{$1}');

/** Adds (or replaces, keyed by method and path) one route's documentation. Call it where the route is mounted. */
export function registerRoute(doc: RouteDoc): void {
  routes.set(`${doc.method} ${toOpenApiPath(doc.path)}`, doc);
}

export function registeredRoutes(): RouteDoc[] {
  return [...routes.values()];
}

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const s = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete s.$schema;
  return s;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Validation Error',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

function parameters(schema: z.ZodType | undefined, where: 'query' | 'path'): JsonSchema[] {
  if (!schema) return [];
  const s = jsonSchema(schema, 'input');
  const props = (s.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((s.required ?? []) as string[]);
  return Object.entries(props).map(([name, prop]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: prop,
    ...(typeof prop.description === 'string' ? { description: prop.description } : {}),
  }));
}

function pathParamsFromPath(path: string): JsonSchema[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
}

function operation(doc: RouteDoc, path: string): JsonSchema {
  const params = [...parameters(doc.request?.params, 'path'), ...parameters(doc.request?.query, 'query')];
  for (const p of pathParamsFromPath(path))
    if (!params.some((q) => q.name === p.name && q.in === 'path')) params.push(p);

  const status = String(doc.status ?? 200);
  const responses: Record<string, JsonSchema> = {};
  if (doc.response === null) responses[status] = { description: 'No content' };
  else if (doc.contentType && doc.contentType !== 'application/json')
    responses[status] = { description: 'OK', content: { [doc.contentType]: { schema: { type: 'string' } } } };
  else
    responses[status] = {
      description: 'OK',
      content: { 'application/json': { schema: doc.response ? jsonSchema(doc.response, 'output') : {} } },
    };
  const errors = new Set(doc.errors ?? []);
  if (doc.auth && doc.auth !== 'none') errors.add(401);
  if (doc.auth === 'superuser') errors.add(403);
  if (doc.request?.body || doc.request?.form || doc.request?.query || doc.request?.params) errors.add(422);
  const errorSchema = jsonSchema(ErrorBody, 'output');
  for (const code of [...errors].sort()) {
    responses[String(code)] = {
      description: STATUS_TEXT[code] ?? 'Error',
      content: { 'application/json': { schema: errorSchema } },
    };
  }

  const op: JsonSchema = {
    summary: doc.summary,
    operationId: `${doc.method}_${path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
    tags: doc.tags ?? [path.split('/')[1] === 'auth' ? 'auth' : (path.split('/')[3] ?? 'misc')],
    parameters: params,
    responses,
  };
  if (doc.auth && doc.auth !== 'none') op.security = [{ bearer: [] }];
  if (doc.request?.body) {
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: jsonSchema(doc.request.body, 'input') } },
    };
  } else if (doc.request?.form) {
    const schema = jsonSchema(doc.request.form, 'input');
    op.requestBody = {
      required: true,
      content: { 'application/x-www-form-urlencoded': { schema }, 'multipart/form-data': { schema } },
    };
  }
  return op;
}

export function buildOpenApiDocument(opts: { serverUrl?: string; version?: string } = {}): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const sorted = registeredRoutes().sort((a, b) => toOpenApiPath(a.path).localeCompare(toOpenApiPath(b.path)));
  for (const doc of sorted) {
    const path = toOpenApiPath(doc.path);
    paths[path] ??= {};
    (paths[path] as Record<string, JsonSchema>)[doc.method] = operation(doc, path);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Kernelforge API',
      version: opts.version ?? '0.1.0',
      description:
        'The auth API (under /auth/) and the product API (under /api/v1/). Bearer tokens are JWT access tokens from /auth/login/* or API tokens (kf_...) from /api/v1/tokens.',
    },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'JWT access token or kf_ API token' } },
    },
    paths,
  };
}
