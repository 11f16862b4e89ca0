// One declaration per route: it documents the route (OpenAPI), guards it, validates its input and its answer, and mounts it.
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from './auth.js';
import { type HttpMethod, type RouteDoc, registerRoute } from './openapi.js';
import { parseForm, parseJson, parseParams, parseQuery } from './validate.js';

type Schema = z.ZodType | undefined;
type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteSpec<P extends Schema, Q extends Schema, B extends Schema, F extends Schema, R extends Schema> {
  method: HttpMethod;
  /** Relative to where the table mounts (its prefix), OpenAPI style: `/agent-session/{id}`. */
  path: string;
  summary: string;
  tags?: readonly string[];
  /** Who may call it; the table's guard for that kind runs first ('none': no guard). */
  auth: NonNullable<RouteDoc['auth']>;
  params?: P;
  query?: Q;
  body?: B;
  /** Form data (urlencoded or multipart) instead of a JSON body. */
  form?: F;
  /** The success body, validated on the way out; null for none (204); absent when the handler answers itself. */
  response?: R | null;
  /** Success status, 200 unless told. */
  status?: number;
  /** Non-JSON successes (SSE, text); the handler then returns its own Response. */
  contentType?: string;
  errors?: readonly number[];
  /** The handler checks the caller itself (the SSE route takes a ticket or a bearer token): document, don't guard. */
  authenticatesItself?: boolean;
  /** In place of the table's guard for `auth`, enforcing the same (requireUserAlong for 'user'). */
  guard?: MiddlewareHandler<AppEnv>;
  /** More middleware after the guard (rate limits). */
  use?: MiddlewareHandler<AppEnv>[];
}

export interface RouteInput<P extends Schema, Q extends Schema, B extends Schema, F extends Schema> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  form: Out<F>;
}

export type Guards = Partial<
  Record<Exclude<RouteSpec<Schema, Schema, Schema, Schema, Schema>['auth'], 'none'>, MiddlewareHandler<AppEnv>>
>;

type Handler<P extends Schema, Q extends Schema, B extends Schema, F extends Schema, R extends Schema> = (
  c: Context<AppEnv>,
  input: RouteInput<P, Q, B, F>,
) => Promise<Out<R> | Response> | Out<R> | Response;

/**
 * A route table over a Hono app mounted at `prefix` (documentation shows full paths). Routes mount in the order
 * they are declared: static paths go before the `{id}` ones they would collide with.
 */
export function routeTable(app: Hono<AppEnv>, prefix: string, guards: Guards) {
  return function route<
    P extends Schema = undefined,
    Q extends Schema = undefined,
    B extends Schema = undefined,
    F extends Schema = undefined,
    R extends Schema = undefined,
  >(spec: RouteSpec<P, Q, B, F, R>, handler: Handler<P, Q, B, F, R>): void {
    const request: NonNullable<RouteDoc['request']> = {
      ...(spec.body ? { body: spec.body } : {}),
      ...(spec.form ? { form: spec.form } : {}),
      ...(spec.query ? { query: spec.query } : {}),
      ...(spec.params ? { params: spec.params } : {}),
    };
    registerRoute({
      method: spec.method,
      path: `${prefix}${spec.path}`,
      summary: spec.summary,
      ...(spec.tags ? { tags: [...spec.tags] } : {}),
      auth: spec.auth,
      ...(Object.keys(request).length > 0 ? { request } : {}),
      ...(spec.response !== undefined ? { response: spec.response } : {}),
      ...(spec.status !== undefined ? { status: spec.status } : {}),
      ...(spec.contentType ? { contentType: spec.contentType } : {}),
      ...(spec.errors ? { errors: [...spec.errors] } : {}),
    });
    const middleware: MiddlewareHandler<AppEnv>[] = [];
    if (spec.auth !== 'none' && !spec.authenticatesItself) {
      const guard = spec.guard ?? guards[spec.auth];
      if (!guard) throw new Error(`no guard for ${spec.auth} routes (${spec.method} ${spec.path})`);
      middleware.push(guard);
    }
    middleware.push(...(spec.use ?? []));
    const honoPath = spec.path.replace(/\{([^}]+)\}/g, ':$1');
    app.on(spec.method.toUpperCase(), [honoPath], ...middleware, async (c: Context<AppEnv>) => {
      // Params first, then the query, then the body: the order the handlers always parsed them in.
      const input = {
        params: spec.params ? parseParams(c, spec.params) : undefined,
        query: spec.query ? parseQuery(c, spec.query) : undefined,
        body: spec.body ? await parseJson(c, spec.body) : undefined,
        form: spec.form ? await parseForm(c, spec.form) : undefined,
      } as RouteInput<P, Q, B, F>;
      const result = await handler(c, input);
      if (result instanceof Response) return result;
      if (spec.response === null) return c.body(null, (spec.status ?? 204) as 204);
      const body = spec.response ? spec.response.parse(result) : result;
      return c.json(body as object, (spec.status ?? 200) as 200);
    });
  };
}
