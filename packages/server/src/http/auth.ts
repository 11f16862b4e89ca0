// Bearer authentication (JWT access tokens and `kf_` API tokens) and the guards routes put in front of handlers.
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { verifyAccessToken } from '../auth/access-token.js';
import { API_TOKEN_PREFIX, userIdForApiToken } from '../auth/api-tokens.js';
import { type AuthUser, findUserById, withoutHash } from '../auth/users.js';
import type { AppContext } from '../context.js';
import { HttpError } from './errors.js';

/** Hono's environment for every route of this server: `c.get('user')` after `requireUser`. */
export type AppEnv = {
  Variables: {
    user: AuthUser;
    /** How the user authenticated; some routes may refuse API tokens later. */
    authKind: 'access_token' | 'api_token';
  };
};

export const CREDENTIALS_DETAIL = 'Could not validate credentials';
export const PRIVILEGES_DETAIL = "The user doesn't have enough privileges";

const unauthorized = () => new HttpError(401, CREDENTIALS_DETAIL, { 'WWW-Authenticate': 'Bearer' });

/** The user behind an `Authorization: Bearer` value, or null when there is none; throws 401 for a bad one. */
export async function authenticate(
  ctx: AppContext,
  header: string | undefined,
): Promise<{ user: AuthUser; kind: AppEnv['Variables']['authKind'] } | null> {
  if (!header) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  const token = match?.[1]?.trim();
  if (!token) throw unauthorized();
  const kind = token.startsWith(API_TOKEN_PREFIX) ? 'api_token' : 'access_token';
  const userId =
    kind === 'api_token' ? await userIdForApiToken(ctx.db, token) : await verifyAccessToken(ctx.config.secret, token);
  if (!userId) throw unauthorized();
  const user = await findUserById(ctx.db, userId);
  // A deleted or deactivated account's tokens stop working at once.
  if (!user?.is_active) throw unauthorized();
  return { user: withoutHash(user), kind };
}

/** 401 without a valid bearer token; sets `user` and `authKind`. */
export function requireUser(ctx: AppContext): MiddlewareHandler<AppEnv> {
  return createMiddleware<AppEnv>(async (c, next) => {
    const found = await authenticate(ctx, c.req.header('Authorization'));
    if (!found) throw unauthorized();
    c.set('user', found.user);
    c.set('authKind', found.kind);
    await next();
  });
}

/** For routes open to anonymous callers that show more to a signed-in one: sets `user` when a valid token is sent, 401 for an invalid one. */
export function optionalUser(ctx: AppContext): MiddlewareHandler<AppEnv> {
  return createMiddleware<AppEnv>(async (c, next) => {
    const found = await authenticate(ctx, c.req.header('Authorization'));
    if (found) {
      c.set('user', found.user);
      c.set('authKind', found.kind);
    }
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
