import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, isIdempotent, isRetryableStatus, retryAfterMs, retryDelayMs } from '../src/core/retry.js';

describe('the retry policy', () => {
  it('retries 408, 409, 429 and every 5xx, never other 4xx', () => {
    for (const status of [408, 409, 429, 500, 502, 503, 504]) expect(isRetryableStatus(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 422]) expect(isRetryableStatus(status)).toBe(false);
  });

  it('only retries idempotent methods', () => {
    expect(isIdempotent('GET')).toBe(true);
    expect(isIdempotent('delete')).toBe(true);
    expect(isIdempotent('POST')).toBe(false);
    expect(isIdempotent('PATCH')).toBe(false);
  });

  it('honours Retry-After in seconds and retry-after-ms', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '150' }))).toBe(150);
    expect(retryDelayMs(0, DEFAULT_RETRY, new Headers({ 'retry-after': '1' }))).toBe(1000);
  });

  it('honours Retry-After as an HTTP date', () => {
    const date = new Date(Date.now() + 3000).toUTCString();
    const ms = retryAfterMs(new Headers({ 'retry-after': date }));
    expect(ms).toBeGreaterThan(1000);
    expect(ms).toBeLessThanOrEqual(3000);
  });

  it('backs off exponentially with jitter between half and the whole ceiling, capped', () => {
    const options = { maxRetries: 5, initialDelayMs: 100, maxDelayMs: 1000 };
    expect(retryDelayMs(0, options, undefined, () => 0)).toBe(50);
    expect(retryDelayMs(0, options, undefined, () => 1)).toBe(100);
    expect(retryDelayMs(2, options, undefined, () => 1)).toBe(400);
    expect(retryDelayMs(10, options, undefined, () => 1)).toBe(1000);
  });

  it('ignores an absurd Retry-After and falls back to backoff', () => {
    expect(retryDelayMs(0, DEFAULT_RETRY, new Headers({ 'retry-after': '86400' }), () => 1)).toBe(500);
  });
});
