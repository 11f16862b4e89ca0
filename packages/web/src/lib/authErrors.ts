// The message of a failed auth call (spec section 5): the server's `detail`, else the form's fallback.
import { ApiError, detailOf, ResponseValidationError } from '@kernelforge/sdk';

/**
 * Only a JSON error body's `detail` counts as the server's word: a plain-text or HTML body (a proxy's
 * 502 page), a lost connection or a malformed answer all show the fallback ('Login failed', ...).
 */
export function authErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.body && typeof error.body === 'object') {
    return detailOf(error.body) || fallback;
  }
  return fallback;
}

export const UNKNOWN_ERROR = 'Unknown error';

/** True when a `users/register` answer came back without `token.access_token` (spec: 'Unknown error'). */
export function lacksAccessToken(error: unknown): boolean {
  if (!(error instanceof ResponseValidationError)) return false;
  const body = error.body as { token?: { access_token?: unknown } } | null | undefined;
  const token = body && typeof body === 'object' ? body.token?.access_token : undefined;
  return typeof token !== 'string' || token.length === 0;
}
