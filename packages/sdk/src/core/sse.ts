// A Server-Sent Events reader over fetch (browser and Node alike) that reconnects with Last-Event-ID.
import { ApiError } from './errors.js';
import { sleep } from './retry.js';

export interface SseMessage {
  id: string | undefined;
  event: string;
  data: string;
  retry: number | undefined;
}

/**
 * Parses an SSE byte stream into messages (the WHATWG event-stream format). A last event with no blank line
 * after it is dropped, as the format says, unless `dispatchUnterminated` (LLM providers' streams, read by the
 * server, may end that way).
 */
export async function* parseEventStream(
  stream: ReadableStream<Uint8Array>,
  opts: { dispatchUnterminated?: boolean } = {},
): AsyncGenerator<SseMessage> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let id: string | undefined;
  let retry: number | undefined;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        if (!opts.dispatchUnterminated) return;
        buffer += decoder.decode();
        // The last line may lack its newline too: one more blank line ends it and dispatches the event.
        buffer += buffer === '' ? '\n' : '\n\n';
      } else buffer += decoder.decode(value, { stream: true });
      let newline = buffer.search(/\r\n|\r|\n/);
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        const width = buffer[newline] === '\r' && buffer[newline + 1] === '\n' ? 2 : 1;
        buffer = buffer.slice(newline + width);
        if (line === '') {
          if (data.length > 0) yield { id, event: event || 'message', data: data.join('\n'), retry };
          data = [];
          event = '';
          retry = undefined;
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          let value = colon < 0 ? '' : line.slice(colon + 1);
          if (value.startsWith(' ')) value = value.slice(1);
          if (field === 'data') data.push(value);
          else if (field === 'event') event = value;
          else if (field === 'id' && !value.includes('\0')) id = value;
          else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
        }
        newline = buffer.search(/\r\n|\r|\n/);
      }
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}

export interface ReconnectingStreamOptions {
  open: (lastEventId: string | undefined) => Promise<Response>;
  signal?: AbortSignal;
  lastEventId?: string;
  /** Wait before reconnecting, unless the server sent `retry:` (default 1000 ms). */
  reconnectDelayMs?: number;
  /** Give up after this many failed connects in a row (default Infinity). */
  maxReconnects?: number;
  onOpen?: () => void;
}

/**
 * Yields messages forever, reconnecting with Last-Event-ID when the stream drops. Client errors (4xx)
 * end it with the mapped ApiError; an abort ends it quietly.
 */
export async function* reconnectingEventStream(options: ReconnectingStreamOptions): AsyncGenerator<SseMessage> {
  let lastEventId = options.lastEventId;
  let delay = options.reconnectDelayMs ?? 1000;
  let failures = 0;
  while (!options.signal?.aborted) {
    try {
      const response = await options.open(lastEventId);
      failures = 0;
      options.onOpen?.();
      if (!response.body) throw new Error('event stream has no body');
      for await (const message of parseEventStream(response.body)) {
        if (message.id !== undefined) lastEventId = message.id;
        if (message.retry !== undefined) delay = message.retry;
        yield message;
      }
    } catch (error) {
      if (options.signal?.aborted) return;
      if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) throw error;
      failures++;
      if (failures > (options.maxReconnects ?? Number.POSITIVE_INFINITY)) throw error;
    }
    try {
      await sleep(delay, options.signal);
    } catch {
      return;
    }
  }
}
