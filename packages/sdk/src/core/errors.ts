// The error hierarchy: one class per status of spec section 8, plus 409 and 429 (which the server sends) as subclasses
// of the generic ApiError, so spec 8's "generic error with status, status text and body" still holds for them;
// chosen in one place (ApiError.from).
import type { z } from 'zod';

export class KernelforgeError extends Error {
  override name = 'KernelforgeError';
}

/** A non-success HTTP response. `detail` is the server's `detail` as one readable string. */
export class ApiError extends KernelforgeError {
  override name = 'ApiError';
  readonly status: number;
  readonly statusText: string;
  readonly body: unknown;
  readonly detail: string | undefined;
  readonly headers: Headers | undefined;

  constructor(status: number, statusText: string, body: unknown, headers?: Headers) {
    const detail = detailOf(body);
    super(`${status} ${statusText}${detail ? `: ${detail}` : ''}`);
    this.status = status;
    this.statusText = statusText;
    this.body = body;
    this.detail = detail;
    this.headers = headers;
  }

  /** Chooses the subclass for a status; any status without one gets the generic ApiError. */
  static from(status: number, statusText: string, body: unknown, headers?: Headers): ApiError {
    const Class = STATUS_CLASSES[status] ?? ApiError;
    return new Class(status, statusText, body, headers);
  }
}

export class BadRequestError extends ApiError {
  override name = 'BadRequestError';
}
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
}
export class PermissionDeniedError extends ApiError {
  override name = 'PermissionDeniedError';
}
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}
/** 409: the request conflicts with the resource's state (e.g. a new round of attempts on a deleted session). */
export class ConflictError extends ApiError {
  override name = 'ConflictError';
}
export class UnprocessableEntityError extends ApiError {
  override name = 'UnprocessableEntityError';
}
/** 429: a rate limit or daily quota; `retryAfterSeconds` is the server's `Retry-After`, when it sent one. */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  get retryAfterSeconds(): number | undefined {
    const value = this.headers?.get('retry-after');
    return value && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
  }
}
export class InternalServerError extends ApiError {
  override name = 'InternalServerError';
}
export class BadGatewayError extends ApiError {
  override name = 'BadGatewayError';
}
export class ServiceUnavailableError extends ApiError {
  override name = 'ServiceUnavailableError';
}

type ApiErrorClass = new (status: number, statusText: string, body: unknown, headers?: Headers) => ApiError;

const STATUS_CLASSES: Record<number, ApiErrorClass> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
  500: InternalServerError,
  502: BadGatewayError,
  503: ServiceUnavailableError,
};

/** The server could not be reached (DNS, refused, reset). */
export class ConnectionError extends KernelforgeError {
  override name = 'ConnectionError';
  constructor(message = 'Connection error.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The request took longer than the client's timeout. */
export class TimeoutError extends ConnectionError {
  override name = 'TimeoutError';
  constructor(message = 'Request timed out.') {
    super(message);
  }
}

/** The runner API: no server answered (each refused the connection, timed out or answered 5xx); one line each. */
export class RunnerUnreachableError extends ConnectionError {
  override name = 'RunnerUnreachableError';
  readonly failures: string[];
  constructor(failures: string[]) {
    super(failures.join('; '));
    this.failures = failures;
  }
}

/** The server answered 2xx with a body that does not match the contract. */
export class ResponseValidationError extends KernelforgeError {
  override name = 'ResponseValidationError';
  readonly issues: z.core.$ZodIssue[];
  readonly body: unknown;
  constructor(path: string, issues: z.core.$ZodIssue[], body: unknown) {
    const first = issues[0];
    super(`Response of ${path} did not match its schema${first ? `: ${first.path.join('.')}: ${first.message}` : ''}`);
    this.issues = issues;
    this.body = body;
  }
}

/** The `detail` of an error body as one string: a 422 list becomes `loc: msg; loc: msg`. */
export function detailOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body || undefined;
  if (!body || typeof body !== 'object' || !('detail' in body)) return undefined;
  const detail = (body as { detail: unknown }).detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((issue) => {
        if (!issue || typeof issue !== 'object') return String(issue);
        const { loc, msg } = issue as { loc?: unknown; msg?: unknown };
        const where = Array.isArray(loc) ? loc.filter((part) => part !== 'body').join('.') : '';
        return where ? `${where}: ${String(msg)}` : String(msg);
      })
      .join('; ');
  }
  return undefined;
}

/** A message fit for a user: the server's detail, else the fallback (e.g. 'Login failed'). */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.detail ?? fallback;
  if (error instanceof KernelforgeError) return error.message || fallback;
  return fallback;
}
