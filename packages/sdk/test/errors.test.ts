import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  BadGatewayError,
  BadRequestError,
  ConflictError,
  detailOf,
  errorMessage,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
  UnprocessableEntityError,
} from '../src/core/errors.js';

describe('ApiError.from', () => {
  const cases: Array<[number, new (...args: never[]) => ApiError]> = [
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, BadGatewayError],
    [503, ServiceUnavailableError],
  ];
  it.each(cases)('maps %i to its own class', (status, Class) => {
    const error = ApiError.from(status, 'Status text', { detail: 'why' });
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(status);
    expect(error.detail).toBe('why');
  });

  it.each([
    [418, ApiError],
    [504, ApiError],
    [409, ConflictError],
    [429, RateLimitError],
  ] as const)(
    'gives any other status (%i) the generic error with status, status text and body (409 and 429 as subclasses)',
    (status, Class) => {
      const error = ApiError.from(status, 'Odd', { detail: 'x', extra: 1 });
      expect(error.constructor).toBe(Class);
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(status);
      expect(error.statusText).toBe('Odd');
      expect(error.body).toEqual({ detail: 'x', extra: 1 });
      expect(error.message).toBe(`${status} Odd: x`);
    },
  );

  it("reads a 429's Retry-After in seconds", () => {
    const limited = ApiError.from(
      429,
      'Too Many Requests',
      { detail: 'slow down' },
      new Headers({ 'Retry-After': '3600' }),
    );
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as RateLimitError).retryAfterSeconds).toBe(3600);
    expect((ApiError.from(429, 'Too Many Requests', {}) as RateLimitError).retryAfterSeconds).toBeUndefined();
  });

  it('keeps a non-JSON body as text', () => {
    const error = ApiError.from(502, 'Bad Gateway', '<html>upstream</html>');
    expect(error.body).toBe('<html>upstream</html>');
    expect(error.detail).toBe('<html>upstream</html>');
  });
});

describe('detailOf', () => {
  it('joins a 422 list into loc: msg pairs without the body prefix', () => {
    const body = {
      detail: [
        { loc: ['body', 'email'], msg: 'Invalid email', type: 'value_error' },
        { loc: ['query', 'limit'], msg: 'Too big', type: 'too_big' },
      ],
    };
    expect(detailOf(body)).toBe('email: Invalid email; query.limit: Too big');
  });
  it('is undefined without a detail', () => {
    expect(detailOf({})).toBeUndefined();
    expect(detailOf(null)).toBeUndefined();
  });
});

describe('errorMessage', () => {
  it("uses the server's detail, else the fallback", () => {
    expect(errorMessage(ApiError.from(400, 'Bad', { detail: 'Incorrect email or password' }), 'Login failed')).toBe(
      'Incorrect email or password',
    );
    expect(errorMessage(ApiError.from(500, 'Oops', {}), 'Login failed')).toBe('Login failed');
    expect(errorMessage(new TypeError('x'), 'Registration failed')).toBe('Registration failed');
  });
});
