// Errors a command raises on purpose, and the one place that turns any error into a message and an exit code.
import { ExitCode } from './exit-codes.js';

/** A failure the command understands: its message (and what to do next) is shown as is. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.error,
    readonly hint?: string,
  ) {
    super(message);
  }
}

export class UsageError extends CliError {
  override name = 'UsageError';
  constructor(message: string, hint?: string) {
    super(message, ExitCode.usage, hint);
  }
}

export const NOT_SIGNED_IN_HINT = 'Run `kforge login` or set KFORGE_TOKEN.';

export class NotSignedInError extends CliError {
  override name = 'NotSignedInError';
  constructor(message = 'Not signed in.') {
    super(message, ExitCode.auth, NOT_SIGNED_IN_HINT);
  }
}

export interface DescribedError {
  message: string;
  hint: string | undefined;
  exitCode: ExitCode;
}

interface ErrorLike {
  name?: unknown;
  status?: unknown;
  detail?: unknown;
  message?: unknown;
}

/**
 * Maps any error to a message, a next step and an exit code. The sdk's classes are told apart by name and
 * status so this module never loads the sdk (kept out of `kforge --help`'s start-up).
 */
export function describeError(error: unknown, apiUrl: string): DescribedError {
  if (error instanceof CliError) return { message: error.message, hint: error.hint, exitCode: error.exitCode };
  const e = (error && typeof error === 'object' ? error : {}) as ErrorLike;
  const name = typeof e.name === 'string' ? e.name : '';
  const detail = typeof e.detail === 'string' && e.detail ? e.detail : undefined;
  const message = typeof e.message === 'string' ? e.message : String(error);
  if (typeof e.status === 'number') {
    const status = e.status;
    if (status === 401) {
      return {
        message: `Not signed in: the server refused the credentials${detail ? ` (${detail})` : ''}.`,
        hint: NOT_SIGNED_IN_HINT,
        exitCode: ExitCode.auth,
      };
    }
    if (status === 403) {
      return {
        message: sentence(detail ?? 'Forbidden: this account may not do that'),
        hint: 'Sign in as a user who may (`kforge whoami` shows who you are).',
        exitCode: ExitCode.auth,
      };
    }
    if (status === 404) {
      return {
        message: sentence(detail ?? 'Not found'),
        hint: 'Check the name or id (`kforge sessions list`, `kforge problems list`).',
        exitCode: ExitCode.notFound,
      };
    }
    if (status === 400 || status === 422) {
      return {
        message: `The server rejected the request: ${detail ?? message}.`,
        hint: 'Check the arguments (`kforge help <command>`).',
        exitCode: ExitCode.error,
      };
    }
    if (status === 429) {
      return {
        message: `Too many requests: ${detail ?? 'rate limited'}.`,
        hint: 'Wait a little and try again.',
        exitCode: ExitCode.error,
      };
    }
    return {
      message: `The server answered ${message}.`,
      hint: status >= 500 ? 'Try again; if it keeps failing, check the server log.' : undefined,
      exitCode: ExitCode.error,
    };
  }
  if (name === 'ConnectionError' || name === 'TimeoutError') {
    return {
      message: `Could not reach the Kernelforge server at ${apiUrl}: ${message}`,
      hint: 'Is the server running? Set KFORGE_API_URL or run `kforge login --api-url URL`.',
      exitCode: ExitCode.error,
    };
  }
  if (name === 'ResponseValidationError') {
    return {
      message: `The server's answer did not match what this kforge expects: ${message}`,
      hint: 'Use a kforge and a server of the same version.',
      exitCode: ExitCode.error,
    };
  }
  return { message: message || 'Unknown error', hint: undefined, exitCode: ExitCode.error };
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
