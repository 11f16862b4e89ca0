// Bearer authentication (JWT access tokens and `kf_` API tokens) and the guards routes put in front of handlers.
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { verifyAccessToken } from '../auth/access-token.js';
import { TOKEN_SCOPES, type TokenScope } from '@kernelforge/sdk';
import { API_TOKEN_PREFIX, apiTokenOwner } from '../auth/api-tokens.js';
import { type AuthUser, findUserById, withoutHash } from '../auth/users.js';
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
  };
};

export const CREDENTIALS_DETAIL = 'Could not validate credentials';
export const PRIVILEGES_DETAIL = "The user doesn't have enough privileges";

const unauthorized = () => new HttpError(401, CREDENTIALS_DETAIL, { 'WWW-Authenticate': 'Bearer' });

export interface Authenticated {
  user: AuthUser;
  kind: AppEnv['Variables']['authKind'];
  scopes: readonly TokenScope[];
}

/**
 * The user behind an `Authorization: Bearer` value, or null when there is none; throws 401 for a bad one, and 403
 * when `request` is given and an API token lacks the scope it needs (see scopes.ts).
 */
export async function authenticate(
  ctx: AppContext,
  header: string | undefined,
  request?: { method: string; path: string },
): Promise<Authenticated | null> {
  if (!header) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  const token = match?.[1]?.trim();
  if (!token) throw unauthorized();
  const kind = token.startsWith(API_TOKEN_PREFIX) ? 'api_token' : 'access_token';
  let userId: string | null;
  let scopes: readonly TokenScope[] = TOKEN_SCOPES;
  if (kind === 'api_token') {
    const owner = await apiTokenOwner(ctx.db, token);
    userId = owner?.userId ?? null;
    if (owner) scopes = owner.scopes;
  } else {
    userId = await verifyAccessToken(ctx.config.secret, token);
  }
  if (!userId) throw unauthorized();
  const user = await findUserById(ctx.db, userId);
  // A deleted or deactivated account's tokens stop working at once.
  if (!user?.is_active) throw unauthorized();
  if (request) assertScope(scopes, request.method, request.path);
  return { user: withoutHash(user), kind, scopes };
}

function remember(c: Context<AppEnv>, found: Authenticated): void {
  c.set('user', found.user);
  c.set('authKind', found.kind);
  c.set('scopes', found.scopes);
}

/** 401 without a valid bearer token; sets `user` and `authKind`. */
export function requireUser(ctx: AppContext): MiddlewareHandler<AppEnv> {
  return createMiddleware<AppEnv>(async (c, next) => {
    const found = await authenticate(ctx, c.req.header('Authorization'), c.req);
    if (!found) throw unauthorized();
    remember(c, found);
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
