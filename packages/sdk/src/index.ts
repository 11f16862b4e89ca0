// @kernelforge/sdk: the contract (zod schemas) and the typed client, for the browser and Node alike.
export * from './schemas/index.js';
export { createClient, type ClientOptions, type KernelforgeClient } from './client.js';
export * from './core/errors.js';
export type { Fetch } from './core/http.js';
export { PAGE_SIZE, PagePromise } from './core/pagination.js';
export type { RetryOptions } from './core/retry.js';
// The HTTP client, retry helpers and SSE parser are internals: @kernelforge/sdk/internal.
export {
  ACCESS_TOKEN_KEY,
  decodeJwtPayload,
  isTokenUsable,
  LocalStorageTokenStore,
  MemoryTokenStore,
  type TokenStore,
  tokenExpiry,
} from './core/token.js';
export {
  type AttemptFigure,
  attemptFigure,
  type FigureAttempt,
  type FigureInterval,
  figureText,
  formatFigureMs,
  rankingTime,
  speedupDisagreements,
  spreadText,
  unrankedReason,
} from './attempt-figure.js';
export { cacheNote, formatBytes } from './case-cache.js';
export {
  bestAttempt,
  evaluationProgressText,
  evaluationWaitText,
  isNewUser,
  NEW_USER_WINDOW_SECONDS,
  peakQuietness,
  problemTitle,
  timingConditions,
  waitSeconds,
} from './helpers.js';
export {
  type DiffLine,
  type DiffSegment,
  diffLines,
  type NumberedLine,
  unifiedDiff,
  unifiedDiffText,
} from './diff.js';
export { applySessionEvent } from './session-events.js';
export { modelNewTemplate } from './torch-template.js';
export { APPLICATION_NAME, AuthResource } from './resources/auth.js';
export { InstructionsResource, type SessionEventMessage, SessionsResource } from './resources/sessions.js';
export { SweepsResource } from './resources/sweeps.js';
export { RunnerClient, type RunnerClientOptions } from './resources/runner.js';
