// The app's SWR policy: retry 5xx and lost connections with backoff, never 4xx; 401s go to one handler.
import { ApiError, AuthenticationError, ResponseValidationError } from '@kernelforge/sdk';
import type { SWRConfiguration } from 'swr';

export const MAX_QUERY_RETRIES = 4;

export function shouldRetry(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500;
  if (error instanceof ResponseValidationError) return false;
  return true;
}

export function swrConfig(onUnauthorized: () => void): SWRConfiguration {
  return {
    provider: () => new Map(),
    dedupingInterval: 2000,
    onError(error) {
      if (error instanceof AuthenticationError) onUnauthorized();
    },
    onErrorRetry(error, _key, _config, revalidate, { retryCount }) {
      if (!shouldRetry(error) || retryCount > MAX_QUERY_RETRIES) return;
      setTimeout(() => void revalidate({ retryCount }), Math.min(30_000, 500 * 2 ** retryCount));
    },
  };
}
