// The one retry policy: idempotent calls on 408, 409, 429 and 5xx or a lost connection; Retry-After; jittered backoff.

export interface RetryOptions {
  /** Retries after the first try (default 2). */
  maxRetries: number;
  /** First backoff in ms, doubled each retry (default 500). */
  initialDelayMs: number;
  /** Cap on one wait in ms (default 8000). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxRetries: 2, initialDelayMs: 500, maxDelayMs: 8000 };

const RETRYABLE_STATUS = new Set([408, 409, 429]);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUS.has(status) || status >= 500;
}

/**
 * How long to wait before retry number `retry` (0-based). Honours `Retry-After` (seconds or an HTTP date)
 * and `retry-after-ms` when present and sane; otherwise exponential backoff with full jitter.
 */
export function retryDelayMs(retry: number, options: RetryOptions, headers?: Headers, random = Math.random): number {
  const fromHeader = retryAfterMs(headers);
  if (fromHeader !== undefined && fromHeader >= 0 && fromHeader <= 60_000) return fromHeader;
  const ceiling = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** retry);
  // Jitter between half and the whole ceiling keeps retries from herding without waiting too little.
  return Math.round(ceiling * (0.5 + random() * 0.5));
}

export function retryAfterMs(headers?: Headers): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Number(ms);
  const value = headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
