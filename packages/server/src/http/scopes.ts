// Which API-token scope a request needs, decided in one place from its method and path, so new routes are covered.
import type { TokenScope } from '@kernelforge/sdk';
import { HttpError } from './errors.js';

/** `tokens` for the token routes (listing included); `read` for other reads; `submit` to submit or run tests; `sessions` for every other write. */
export function requiredScope(method: string, path: string): TokenScope {
  const p = path.replace(/\/+$/, '');
  if (p === '/api/v1/tokens' || p.startsWith('/api/v1/tokens/')) return 'tokens';
  if (method === 'GET' || method === 'HEAD') return 'read';
  // Submitting and running tests ("Run tests", never ranked) both take `submit`.
  if (p === '/api/v1/submission' || p === '/api/v1/submission/test') return 'submit';
  // Asking for a ticket to read a session's events is a read.
  if (/^\/api\/v1\/agent-session\/[^/]+\/events\/ticket$/.test(p)) return 'read';
  return 'sessions';
}

/** 403 naming the missing scope and how to get a token that has it. */
export function assertScope(scopes: readonly TokenScope[], method: string, path: string): void {
  const needed = requiredScope(method, path);
  if (!scopes.includes(needed))
    throw new HttpError(
      403,
      `This API token lacks the '${needed}' scope; create a token with it on the tokens page or with \`kforge tokens create NAME --scope ${needed}\``,
    );
}
