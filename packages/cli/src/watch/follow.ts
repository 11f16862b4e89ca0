// One stream of a session's events: the server's SSE feed, plus a periodic re-read of the session so a
// missed event (or a session that went idle before the feed opened) can never leave a view waiting forever.
import type { KernelforgeClient } from '@kernelforge/sdk';
import type { WatchEvent } from './session-state.js';

export interface FollowOptions {
  signal: AbortSignal;
  /** How often the session is re-read (default 5 s). */
  pollMs?: number;
}

export async function* followSession(
  client: KernelforgeClient,
  sessionId: string,
  options: FollowOptions,
): AsyncGenerator<WatchEvent> {
  const queue: WatchEvent[] = [];
  let wake: (() => void) | undefined;
  let failure: unknown;
  const push = (event: WatchEvent) => {
    queue.push(event);
    wake?.();
  };
  const { signal } = options;
  const onAbort = () => wake?.();
  signal.addEventListener('abort', onAbort, { once: true });

  const stream = (async () => {
    for await (const message of client.sessions.events(sessionId, { signal })) push(message.event);
  })().catch((error: unknown) => {
    if (!signal.aborted) {
      failure = error;
      wake?.();
    }
  });

  const poll = async () => {
    const pollMs = options.pollMs ?? 5000;
    for (let first = true; !signal.aborted; first = false) {
      if (!first) await delay(pollMs, signal);
      if (signal.aborted) return;
      try {
        // No signal per call (the sdk would add a listener to it each time); an abort is seen on the next tick.
        const session = await client.sessions.get(sessionId);
        push({ type: 'snapshot', session });
        if (session.status === 'active') {
          // The queue position and estimate: extra, so a server without the route (or a hiccup) costs nothing.
          const progress = await client.sessions.progress(sessionId).catch(() => undefined);
          if (progress && !signal.aborted) push({ type: 'progress', progress });
        }
      } catch (error) {
        if (signal.aborted) return;
        // A 404 or 401 means the view cannot go on; anything else is retried on the next tick.
        const status = (error as { status?: number }).status;
        if (status === 401 || status === 403 || status === 404) {
          failure = error;
          wake?.();
          return;
        }
      }
    }
  };
  const polling = poll();

  try {
    while (!signal.aborted) {
      if (failure) throw failure;
      const next = queue.shift();
      if (next) {
        yield next;
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    void stream;
    void polling;
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
