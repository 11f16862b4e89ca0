// A running session's horizon (GET /api/v1/agent-session/{id}/progress): queue position and time estimate, polled
// every few seconds while the session runs and not at all otherwise (the session itself comes over the event stream).
import type { SessionProgress } from '@kernelforge/sdk';
import { useCallback } from 'react';
import useSWR from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export const PROGRESS_POLL_MS = 3000;
/** While an evaluation runs, its part (case i of n, samples) changes every second or two: polled this often then. */
export const EVALUATION_POLL_MS = 1000;

/** The report, with when it arrived, so an estimate can count down between polls. */
export type TimedProgress = SessionProgress & { fetched_at: number };

/**
 * `current`: the session's live attempt and its status, as the event stream has it. A change of either (an attempt
 * starting to evaluate) fetches at once, and while one evaluates the report is polled every second: an evaluation
 * can be over in a couple of seconds, shorter than the idle poll.
 *
 * SWR restarts its poll timer whenever `refreshInterval` changes identity, so the interval is memoised on
 * `evaluating` (an inline function restarted it on every render of the page, and a page that renders more often than
 * once a second never polled); and its deduping window (2 s by default) is kept under the evaluation poll, which it
 * otherwise swallowed every other time (the report came every 2 s, not every second).
 */
export function useSessionProgress(
  id: string | undefined,
  running: boolean,
  current?: { id: string; status: string } | undefined,
) {
  const evaluating = current?.status === 'evaluating';
  const refreshInterval = useCallback(
    (latest: TimedProgress | undefined) =>
      evaluating || latest?.phase === 'evaluating' ? EVALUATION_POLL_MS : PROGRESS_POLL_MS,
    [evaluating],
  );
  return useSWR(
    id && running ? [...keys.sessionProgress(id), current?.id ?? '', current?.status ?? ''] : null,
    async (): Promise<TimedProgress> => ({ ...(await api().sessions.progress(id ?? '')), fetched_at: Date.now() }),
    {
      refreshInterval,
      dedupingInterval: EVALUATION_POLL_MS / 2,
      revalidateOnFocus: false,
      keepPreviousData: true,
    },
  );
}
