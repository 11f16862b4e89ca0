// One place for provider HTTP: timeouts, and retries of 408 / 409 / 429 / 5xx / network errors within a bound (the sdk's policy).
import { isRetryableStatus, type RetryOptions, retryAfterMs, retryDelayMs, sleep } from '@kernelforge/sdk/internal';
import { AgentError } from '../types.js';
import type { LlmSettings } from './settings.js';

/** A short excerpt of an error body, for the attempt's error line. */
async function errorDetail(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const j = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    const msg = typeof j.error === 'string' ? j.error : (j.error?.message ?? j.message);
    if (msg) return msg.slice(0, 300);
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.slice(0, 300);
}

/**
 * POSTs `body` and hands the streaming response to `consume`, retrying the whole request when the provider
 * answers 429/5xx or the connection fails before any text was streamed. `consume` reports whether it streamed text.
 */
export async function postWithRetry<T>(
  label: string,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  settings: LlmSettings,
  signal: AbortSignal,
  consume: (res: Response, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const started = Date.now();
  // Backoff between tries: the sdk's one retry policy (exponential, jittered), capped at 8 s.
  const policy: RetryOptions = { maxRetries: settings.maxTries - 1, initialDelayMs: 500, maxDelayMs: 8000 };
  let last = '';
  for (let attempt = 1; ; attempt++) {
    if (signal.aborted) throw new AgentError('generation stopped', { retryable: false, cause: signal.reason });
    const timeout = AbortSignal.timeout(settings.timeoutMs);
    const both = AbortSignal.any([signal, timeout]);
    let wait: number | null = null;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: both,
      });
      if (res.ok && res.body) return await consume(res, both);
      const detail = await errorDetail(res);
      last = `${label} answered ${res.status}${detail ? `: ${detail}` : ''}`;
      if (!isRetryableStatus(res.status)) throw new AgentError(last, { retryable: false });
      wait = retryAfterMs(res.headers) ?? null;
    } catch (err) {
      if (err instanceof AgentError) throw err;
      if (signal.aborted) throw new AgentError('generation stopped', { retryable: false, cause: err });
      if (timeout.aborted) last = `${label} did not finish within ${Math.round(settings.timeoutMs / 1000)} s`;
      else last = `${label} could not be reached: ${(err as Error).message ?? String(err)}`;
      if (err instanceof StreamedError)
        throw new AgentError(`${label} stream broke off: ${err.message}`, { retryable: true, cause: err });
    }
    // The provider's Retry-After when it gave one, else backoff with jitter; never past the budget.
    const backoff = wait ?? retryDelayMs(attempt - 1, policy);
    const spent = Date.now() - started;
    if (attempt >= settings.maxTries || spent + backoff > settings.retryBudgetMs) {
      throw new AgentError(`${last} (gave up after ${attempt} ${attempt === 1 ? 'try' : 'tries'})`, {
        retryable: true,
      });
    }
    await sleep(backoff, signal).catch((e: unknown) => {
      throw new AgentError('generation stopped', { retryable: false, cause: e });
    });
  }
}

/** Thrown by a consumer whose stream failed after text was already shown: the attempt cannot be silently redone. */
export class StreamedError extends Error {}
