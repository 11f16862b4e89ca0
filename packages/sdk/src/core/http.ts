// One authenticated fetch, built once and handed to every resource: URLs, auth, timeouts, retries, parsing.
import type { z } from 'zod';
import { ApiError, ConnectionError, ResponseValidationError, TimeoutError } from './errors.js';
import { DEFAULT_RETRY, isIdempotent, isRetryableStatus, type RetryOptions, retryDelayMs, sleep } from './retry.js';
import type { TokenStore } from './token.js';

export type Fetch = typeof globalThis.fetch;
export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  /** Overrides the client's retry count for this call. */
  maxRetries?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface HttpRequest<T> extends RequestOptions {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, QueryValue> | undefined;
  json?: unknown;
  form?: Record<string, string | undefined>;
  schema: z.ZodType<T>;
  /** Send the bearer token (default true). */
  auth?: boolean;
}

export interface HttpClientOptions {
  baseUrl: string;
  fetch?: Fetch;
  tokenStore: TokenStore;
  retry?: Partial<RetryOptions>;
  timeoutMs?: number;
  userAgent?: string;
}

/** Builds a path from a template, encoding every parameter: path`/agent-session/${id}`. */
export function path(strings: TemplateStringsArray, ...params: Array<string | number>): string {
  return strings.reduce(
    (out, part, i) => out + part + (i < params.length ? encodeURIComponent(String(params[i])) : ''),
    '',
  );
}

export class HttpClient {
  readonly baseUrl: string;
  readonly tokenStore: TokenStore;
  readonly #fetch: Fetch;
  readonly #retry: RetryOptions;
  readonly #timeoutMs: number;
  readonly #userAgent: string | undefined;

  constructor(options: HttpClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.tokenStore = options.tokenStore;
    this.#fetch = options.fetch ?? ((...args) => globalThis.fetch(...args));
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.#userAgent = options.userAgent;
  }

  url(path: string, query?: Record<string, QueryValue>): string {
    const url = `${this.baseUrl}${path.startsWith('/') ? path : `/${path}`}`;
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
    }
    const qs = params.toString();
    return qs ? `${url}?${qs}` : url;
  }

  async headers(auth: boolean, extra?: Record<string, string>): Promise<Record<string, string>> {
    const headers: Record<string, string> = { accept: 'application/json', ...extra };
    if (this.#userAgent) headers['x-kforge-client'] = this.#userAgent;
    if (auth) {
      const token = await this.tokenStore.get();
      if (token) headers.authorization = `Bearer ${token}`;
    }
    return headers;
  }

  async request<T>(req: HttpRequest<T>): Promise<T> {
    const maxRetries = isIdempotent(req.method) ? (req.maxRetries ?? this.#retry.maxRetries) : 0;
    for (let retry = 0; ; retry++) {
      const response = await this.#send(req).catch((error: unknown) => {
        if (retry < maxRetries && error instanceof ConnectionError && !(error instanceof TimeoutError)) return error;
        throw error;
      });
      if (response instanceof ConnectionError) {
        await sleep(retryDelayMs(retry, this.#retry), req.signal);
        continue;
      }
      if (response.ok) return this.#parse(req, response);
      if (retry < maxRetries && isRetryableStatus(response.status)) {
        await response.body?.cancel().catch(() => {});
        await sleep(retryDelayMs(retry, this.#retry, response.headers), req.signal);
        continue;
      }
      throw ApiError.from(response.status, response.statusText, await readBody(response), response.headers);
    }
  }

  /** A raw authenticated request (used by the SSE reader); throws the mapped ApiError on non-2xx. */
  async stream(path: string, init: { headers?: Record<string, string>; signal?: AbortSignal }): Promise<Response> {
    const headers = await this.headers(true, { accept: 'text/event-stream', ...init.headers });
    let response: Response;
    try {
      response = await this.#fetch(this.url(path), { method: 'GET', headers, signal: init.signal ?? null });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new ConnectionError(`Could not reach ${this.baseUrl}: ${fetchFailure(error)}`, { cause: error });
    }
    if (!response.ok) {
      throw ApiError.from(response.status, response.statusText, await readBody(response), response.headers);
    }
    return response;
  }

  async #send(req: HttpRequest<unknown>): Promise<Response> {
    const headers = await this.headers(req.auth ?? true, req.headers);
    let body: string | URLSearchParams | undefined;
    if (req.form) {
      // Spec section 5: form fields are sent as form data, empty values omitted.
      const form = new URLSearchParams();
      for (const [key, value] of Object.entries(req.form)) if (value) form.set(key, value);
      body = form;
    } else if (req.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.json);
    }
    const timeout = new AbortController();
    const timeoutMs = req.timeoutMs ?? this.#timeoutMs;
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const linked = req.signal ? linkSignals(req.signal, timeout) : undefined;
    const signal = timeout.signal;
    try {
      return await this.#fetch(this.url(req.path, req.query), {
        method: req.method,
        headers,
        body: body ?? null,
        signal,
      });
    } catch (error) {
      if (req.signal?.aborted) throw req.signal.reason ?? error;
      if (timeout.signal.aborted) throw new TimeoutError(`Request timed out after ${timeoutMs} ms.`);
      throw new ConnectionError(`Could not reach ${this.baseUrl}: ${fetchFailure(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
      linked?.();
    }
  }

  async #parse<T>(req: HttpRequest<T>, response: Response): Promise<T> {
    const body = response.status === 204 ? null : await readBody(response);
    const parsed = req.schema.safeParse(body);
    if (!parsed.success) throw new ResponseValidationError(`${req.method} ${req.path}`, parsed.error.issues, body);
    return parsed.data;
  }
}

/**
 * What went wrong with a fetch, in words: Node's fetch says only "fetch failed" and keeps the reason (a refused
 * connection, a reset, a socket the server closed) in its cause.
 */
function fetchFailure(error: unknown): string {
  const message = (error as Error)?.message ?? String(error);
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  const reason = typeof cause?.message === 'string' ? cause.message : '';
  const code = typeof cause?.code === 'string' && !reason.includes(cause.code) ? cause.code : '';
  const why = [reason, code].filter(Boolean).join(', ');
  return why ? `${message} (${why})` : message;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Aborts `controller` when `signal` aborts; returns the unlink function, so a signal reused across many
 * calls (a poll loop) does not collect one listener per request.
 */
function linkSignals(signal: AbortSignal, controller: AbortController): () => void {
  if (signal.aborted) {
    controller.abort(signal.reason);
    return () => {};
  }
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
