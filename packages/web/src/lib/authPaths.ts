// Where auth sends people: the login redirect (`/?login=1&redirect=<path>`) and the landing page after login.
import { decodeJwtPayload, PASSWORD_RESET_BY_LINK_MS } from '@kernelforge/sdk';

export const UNAUTHORIZED_MESSAGE = 'Unauthorized, please login again';
export const AFTER_LOGIN_PATH = '/kernels/generate-kernel';

/** Spec section 2: `/` with `login=1` and, by default, `redirect` holding the current pathname. */
export function loginPath(redirect?: string): string {
  const params = new URLSearchParams({ login: '1' });
  if (redirect) params.set('redirect', redirect);
  return `/?${params.toString()}`;
}

/** Only a path on this site may be a redirect target (never `//host` or `https://...`). */
export function safeRedirect(target: string | null | undefined): string | undefined {
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return undefined;
  return target;
}

export interface LoginSearch {
  login: number | undefined;
  redirect: string | undefined;
}

/** Spec section 5: `login` an optional number, `redirect` an optional string; anything else is dropped. */
export function parseLoginSearch(search: string): LoginSearch {
  const params = new URLSearchParams(search);
  const rawLogin = params.get('login');
  const login =
    rawLogin !== null && rawLogin.trim() !== '' && Number.isFinite(Number(rawLogin)) ? Number(rawLogin) : undefined;
  const redirect = params.get('redirect') ?? undefined;
  return { login, redirect };
}

export const TOKEN_REQUIRED_MESSAGE = 'Token is required';

/** Spec section 5: the `token` search param is a string of at least 1 character. */
export function parseTokenSearch(search: string): { ok: true; token: string } | { ok: false; error: string } {
  const token = new URLSearchParams(search).get('token');
  if (token === null || token.length < 1) return { ok: false, error: TOKEN_REQUIRED_MESSAGE };
  return { ok: true, token };
}

/**
 * Until when the stored session may set a new password without the current one (a forgotten password): signed in by
 * an emailed link less than PASSWORD_RESET_BY_LINK_MS ago (the server decides; this only says so). Null otherwise.
 */
export function passwordResetUntil(token: string | null, now = Date.now()): Date | null {
  const payload = token ? decodeJwtPayload(token) : undefined;
  if (payload?.via !== 'link' || typeof payload.iat !== 'number') return null;
  const until = payload.iat * 1000 + PASSWORD_RESET_BY_LINK_MS;
  return until > now ? new Date(until) : null;
}
