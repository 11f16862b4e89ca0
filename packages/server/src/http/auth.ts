// Bearer authentication (JWT access tokens and `kf_` API tokens) and the guards routes put in front of handlers.
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { accessTokenFacts, type SignedInVia } from '../auth/access-token.js';
import { TOKEN_SCOPES, type TokenScope } from '@kernelforge/sdk';
import {
  API_TOKEN_PREFIX,
  apiTokenHash,
  apiTokenScopes,
  LIVE_API_TOKEN,
  markApiTokenUsed,
} from '../auth/api-tokens.js';
import { type AuthUser, isUserId, userColumns, userOfRow, withoutHash } from '../auth/users.js';
import { FreshReads } from '../db/fresh-reads.js';
import { prepared, preparedName, type Sql } from '../db/sql.js';
import type { AppContext } from '../context.js';
import { HttpError } from './errors.js';
import { assertScope } from './scopes.js';

/** Hono's environment for every route of this server: `c.get('user')` after `requireUser`. */
export type AppEnv = {
  Variables: {
    user: AuthUser;
    /** How the user authenticated; some routes may refuse API tokens later. */
    authKind: 'access_token' | 'api_token';
    /** What the credential may do: every scope for an access token, the token's own for an API token. */
    scopes: readonly TokenScope[];
    /** The row requireUserAlong read with the user (its columns among the user's), null when there was none. */
    alongside: Record<string, unknown> | null;
    /** An access token's sign-in: when it was issued (ms) and how; null for an API token. */
    signedIn: { at: number; via: SignedInVia | null } | null;
  };
};

export const CREDENTIALS_DETAIL = 'Could not validate credentials';
export const PRIVILEGES_DETAIL = "The user doesn't have enough privileges";

const unauthorized = () => new HttpError(401, CREDENTIALS_DETAIL, { 'WWW-Authenticate': 'Bearer' });

export interface Authenticated {
  user: AuthUser;
  kind: AppEnv['Variables']['authKind'];
  scopes: readonly TokenScope[];
  signedIn: AppEnv['Variables']['signedIn'];
}

/**
 * A row a route needs on every call, read in the same statement as the caller's user row, so that guard and route
 * cost one round trip to the database instead of two (a session GET: its row versions, domain/sessions/session-json.ts).
 * `sql` is a SELECT of at most one row with parameters from $2 on, constant for a given `name`; its column names must
 * not be the user's (users.ts), start with `token_` or be `alongside_found`. The user is still read, and checked, on
 * every call, exactly as without it.
 */
export interface Alongside {
  name: string;
  sql: string;
  params: unknown[];
}

/** The statement that reads the credential's user (by id for an access token, by hash for an API token), prepared. */
const statements = new Map<string, string>();
function userStatement(kind: Authenticated['kind'], alongside: Alongside | undefined): string {
  const key = `${kind}/${alongside?.name ?? ''}`;
  let text = statements.get(key);
  if (text === undefined) {
    const along = alongside
      ? ` LEFT JOIN LATERAL (SELECT true AS alongside_found, y.* FROM (${alongside.sql}) y) x ON true`
      : '';
    const extra = alongside ? ', x.*' : '';
    text =
      kind === 'access_token'
        ? `SELECT ${userColumns('u')}${extra} FROM users u${along} WHERE u.id = $1`
        : `SELECT ${LIVE_API_TOKEN.columns}, ${userColumns('u')}${extra}
           FROM ${LIVE_API_TOKEN.from} JOIN users u ON u.id = t.user_id${along} WHERE ${LIVE_API_TOKEN.where}`;
    text = prepared(`auth_${kind}${alongside ? `_${alongside.name}` : ''}`, text);
    statements.set(key, text);
  }
  return text;
}

const reads = new WeakMap<Sql, FreshReads>();
const freshReads = (db: Sql): FreshReads => {
  let r = reads.get(db);
  if (!r) {
    r = new FreshReads();
    reads.set(db, r);
  }
  return r;
};
const touched = new WeakSet<object>();

/**
 * The user behind an `Authorization: Bearer` value, or null when there is none; throws 401 for a bad one, and 403
 * when `request` is given and an API token lacks the scope it needs (see scopes.ts). With `alongside`, its row comes
 * back too (null when it found none), from the same statement.
 */
export async function authenticate(
  ctx: AppContext,
  header: string | undefined,
  request?: { method: string; path: string },
  alongside?: Alongside,
): Promise<(Authenticated & { alongside: Record<string, unknown> | null }) | null> {
  if (!header) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  const token = match?.[1]?.trim();
  if (!token) throw unauthorized();
  const kind = token.startsWith(API_TOKEN_PREFIX) ? 'api_token' : 'access_token';
  let key: string | null;
  let signedIn: Authenticated['signedIn'] = null;
  if (kind === 'api_token') key = apiTokenHash(token);
  else {
    // Ids are uuids; anything else cannot match and must not reach Postgres as a cast error.
    const facts = await accessTokenFacts(ctx.config.secret, token);
    key = facts && isUserId(facts.userId) ? facts.userId : null;
    if (facts) signedIn = { at: facts.issuedAt, via: facts.via };
  }
  if (!key) throw unauthorized();
  const text = userStatement(kind, alongside);
  const params = [key, ...(alongside?.params ?? [])];
  // Callers with the same credential and row share a read that starts after they asked (db/fresh-reads.ts): what
  // was revoked or deactivated before a request came is seen by its read.
  const [row] = await freshReads(ctx.db).read(`${preparedName(text)}\u0000${params.join('\u0000')}`, () =>
    ctx.db.query<Record<string, unknown>>(text, params),
  );
  // No such token (revoked, expired, unknown) or no such user.
  if (!row) throw unauthorized();
  let scopes: readonly TokenScope[] = TOKEN_SCOPES;
  if (kind === 'api_token') {
    scopes = apiTokenScopes(row.token_scopes as string[]);
    // Once per row read, however many requests shared it.
    if (row.token_stale && !touched.has(row)) {
      touched.add(row);
      await markApiTokenUsed(ctx.db, row.token_id as string);
    }
  }
  const user = userOfRow(row);
  // A deleted or deactivated account's tokens stop working at once.
  if (!user.is_active) throw unauthorized();
  if (request) assertScope(scopes, request.method, request.path);
  return {
    user: withoutHash(user),
    kind,
    scopes,
    signedIn,
    alongside: alongside && row.alongside_found ? row : null,
  };
}

function remember(c: Context<AppEnv>, found: Authenticated): void {
  c.set('user', found.user);
  c.set('authKind', found.kind);
  c.set('scopes', found.scopes);
  c.set('signedIn', found.signedIn);
}

/** 401 without a valid bearer token; sets `user` and `authKind`. */
export function requireUser(ctx: AppContext): MiddlewareHandler<AppEnv> {
  return requireUserAlong(ctx, () => undefined);
}

/**
 * requireUser that also reads the route's row `along(c)` names in the same statement (see Alongside), and leaves it
 * for the handler as `c.get('alongside')`.
 */
export function requireUserAlong(
  ctx: AppContext,
  along: (c: Context<AppEnv>) => Alongside | undefined,
): MiddlewareHandler<AppEnv> {
  return createMiddleware<AppEnv>(async (c, next) => {
    const alongside = along(c);
    const found = await authenticate(ctx, c.req.header('Authorization'), c.req, alongside);
    if (!found) throw unauthorized();
    remember(c, found);
    if (alongside) c.set('alongside', found.alongside);
    await next();
  });
}

/** For routes open to anonymous callers that show more to a signed-in one: sets `user` when a valid token is sent, 401 for an invalid one. */
export function optionalUser(ctx: AppContext): MiddlewareHandler<AppEnv> {
  return createMiddleware<AppEnv>(async (c, next) => {
    const found = await authenticate(ctx, c.req.header('Authorization'), c.req);
    if (found) remember(c, found);
    await next();
  });
}

/** The user behind optionalUser, or null for an anonymous caller. */
export function maybeUser(c: Context<AppEnv>): AuthUser | null {
  return (c.get('user') as AuthUser | undefined) ?? null;
}

/** requireUser, then 403 unless the user is a superuser. */
export function requireSuperuser(ctx: AppContext): MiddlewareHandler<AppEnv> {
  const user = requireUser(ctx);
  return createMiddleware<AppEnv>(async (c, next) => {
    await user(c, async () => {
      if (!c.get('user').is_superuser) throw new HttpError(403, PRIVILEGES_DETAIL);
      await next();
    });
  });
}

/** The signed-in user inside a handler behind requireUser; a 401 if a route forgot the guard. */
export function currentUser(c: Context<AppEnv>): AuthUser {
  const user = c.get('user') as AuthUser | undefined;
  if (!user) throw unauthorized();
  return user;
}

/** The guards of a route table (http/route.ts) for 'user' and 'superuser' routes. */
export function userGuards(ctx: AppContext): { user: MiddlewareHandler<AppEnv>; superuser: MiddlewareHandler<AppEnv> } {
  return { user: requireUser(ctx), superuser: requireSuperuser(ctx) };
}
