// The app's SWR policy: one retry layer (the sdk's), a fresh cache, and 401s to one handler.
import { AuthenticationError } from '@kernelforge/sdk';
import type { SWRConfiguration } from 'swr';

export function swrConfig(onUnauthorized: () => void): SWRConfiguration {
  return {
    provider: () => new Map(),
    dedupingInterval: 2000,
    // The sdk already retries an idempotent call (lost connection, 408, 409, 429, 5xx) with backoff and Retry-After;
    // SWR retrying the failed call on top would multiply the requests (up to 15 per failing GET). A failed query
    // shows its error and is fetched again on focus, on reconnect or on the next visit.
    shouldRetryOnError: false,
    onError(error) {
      if (error instanceof AuthenticationError) onUnauthorized();
    },
  };
}
