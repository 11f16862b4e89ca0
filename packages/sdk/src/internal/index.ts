// @kernelforge/sdk/internal: logic the workspace's packages share (retry policy, SSE parsing); not public API.
export { HttpClient, path, type RequestOptions } from '../core/http.js';
export {
  DEFAULT_RETRY,
  isIdempotent,
  isRetryableStatus,
  type RetryOptions,
  retryAfterMs,
  retryDelayMs,
  sleep,
} from '../core/retry.js';
export { parseEventStream, reconnectingEventStream, type SseMessage } from '../core/sse.js';
