// Live updates: the session's SSE stream written into the SWR cache (one connection, no polling).
import { type AgentSession, AuthenticationError } from '@kernelforge/sdk';
import { useEffect } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { api } from '../lib/client';
import { applySessionEvent } from '@kernelforge/sdk';
import { keys } from './keys';

/** Streamed agent text per attempt id. */
export type StreamedText = Record<string, string>;

const FLUSH_MS = 100;

export function useSessionEvents(sessionId: string | undefined, enabled = true): void {
  const { mutate } = useSWRConfig();
  useEffect(() => {
    if (!sessionId || !enabled) return;
    const controller = new AbortController();
    const sessionKey = keys.session(sessionId);
    const streamKey = keys.sessionStream(sessionId);
    let pendingText: StreamedText = {};
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    let refreshTimer: ReturnType<typeof setTimeout> | undefined;

    // Deltas arrive token by token: batch them so React renders ten times a second at most.
    const flushText = () => {
      flushTimer = undefined;
      const chunk = pendingText;
      pendingText = {};
      void mutate<StreamedText>(
        streamKey,
        (current = {}) => {
          const next = { ...current };
          for (const [id, text] of Object.entries(chunk)) next[id] = (next[id] ?? '') + text;
          return next;
        },
        { revalidate: false },
      );
    };
    const refreshSoon = () => {
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(() => void mutate(sessionKey), 300);
    };

    void (async () => {
      try {
        for await (const { event } of api().sessions.events(sessionId, { signal: controller.signal })) {
          if (event.type === 'attempt.delta') {
            pendingText[event.attempt_id] = (pendingText[event.attempt_id] ?? '') + event.text;
            flushTimer ??= setTimeout(flushText, FLUSH_MS);
          } else if (event.type === 'session.updated') {
            refreshSoon();
          } else {
            void mutate<AgentSession>(sessionKey, (s) => (s ? applySessionEvent(s, event) : s), { revalidate: false });
          }
        }
      } catch (error) {
        // A 401 here is handled by the next query; anything else ends the live view quietly.
        if (error instanceof AuthenticationError) void mutate(sessionKey);
      }
    })();
    return () => {
      controller.abort();
      clearTimeout(flushTimer);
      clearTimeout(refreshTimer);
    };
  }, [sessionId, enabled, mutate]);
}

/** The agent's streamed text per attempt, as the event stream wrote it. */
export function useStreamedText(sessionId: string | undefined): StreamedText {
  const { data } = useSWR<StreamedText>(sessionId ? keys.sessionStream(sessionId) : null, null);
  return data ?? {};
}
