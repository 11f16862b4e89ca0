// The domain's failures, typed: what went wrong in the product's terms (not found, a conflict, a limit reached, an
// invalid input), never an HTTP status. The HTTP layer maps each to its status and `{detail}` body
// (http/errors.ts, `errorHandler`); nothing outside routes/ and http/ throws an HttpError.
import type { ValidationIssue } from '@kernelforge/sdk';

export abstract class DomainError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = new.target.name;
  }
}

/** The thing asked for does not exist, or the caller may not see it (404). */
export class NotFoundError extends DomainError {}

/** The thing is in a state that does not allow the move (409). */
export class ConflictError extends DomainError {}

/** The caller may not do this (a confirmation link of another account) (403). */
export class ForbiddenError extends DomainError {}

/** Refused as asked (a wrong current password, a used link): the detail says what to do instead (400). */
export class RefusedError extends DomainError {}

/** A limit is reached (daily quota, sign-in throttle): try again after `retryAfterSeconds` (429, `Retry-After`). */
export class LimitError extends DomainError {
  constructor(
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(detail);
  }
}

/** The input breaks a rule a schema could not state (422, FastAPI's `[{loc, msg, type}]`). */
export class InvalidInputError extends DomainError {
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[]) {
    super('Validation Error');
    this.issues = issues;
  }
}

/** One invalid field, in the shape every validation issue takes. */
export const invalidInput = (loc: (string | number)[], msg: string) =>
  new InvalidInputError([{ loc, msg, type: 'value_error' }]);
