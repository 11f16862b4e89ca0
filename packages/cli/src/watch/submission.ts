// Following a submission: re-read it until its evaluation is over, yielding each state seen, with why it has no
// verdict yet while it is pending (its place in the queue, or what its runner does: its waits for the timing lock
// and for quiet included, issue 35 item 3).
import {
  evaluationProgressText,
  type KernelforgeClient,
  type SubmissionDetail,
  type SubmissionProgress,
} from '@kernelforge/sdk';

/** A submission as followed: while it is pending, `progress` says why it has no verdict yet (when the server says). */
export type FollowedSubmission = SubmissionDetail & { progress?: SubmissionProgress };

/** The pending submission's wait in one line, as the web's submission page says it; undefined when nothing is known. */
export function submissionWaitLine(submission: FollowedSubmission): string | undefined {
  const p = submission.progress;
  if (!p || isSubmissionDone(submission)) return undefined;
  if (p.phase === 'queued' && p.queue) {
    const { ahead, running } = p.queue;
    const place = ahead === 0 ? 'next in line' : `${ahead} evaluation${ahead === 1 ? '' : 's'} ahead of it`;
    return `Waiting for a runner on ${submission.device}: ${place}, ${running} running now`;
  }
  if (p.phase === 'evaluating' && p.evaluation) return evaluationProgressText(p.evaluation);
  return undefined;
}

export function isSubmissionDone(submission: { status: string }): boolean {
  return submission.status === 'completed' || submission.status === 'failed';
}

export function isAccepted(submission: {
  status: string;
  verdict: string | null;
  evaluation_state?: { verdict: string } | null;
}): boolean {
  const verdict = submission.verdict ?? submission.evaluation_state?.verdict ?? null;
  return submission.status === 'completed' && verdict === 'accepted';
}

export interface PollOptions {
  intervalMs?: number;
  signal?: AbortSignal;
}

/** Yields the submission after each poll, the last one done; polls every second, then every 2 s after 30 s. */
export async function* pollSubmission(
  client: KernelforgeClient,
  id: string,
  options: PollOptions = {},
): AsyncGenerator<FollowedSubmission> {
  const started = Date.now();
  for (;;) {
    // The signal is checked between polls rather than passed to each call: the sdk adds an abort listener
    // to a passed signal on every request and never removes it.
    if (options.signal?.aborted) return;
    let submission: SubmissionDetail | undefined;
    try {
      submission = await client.leaderboards.submission(id, { timeoutMs: 30_000 });
    } catch (error) {
      // A busy or restarting server is no reason to stop waiting: poll again until the caller's deadline.
      if (!isTransient(error)) throw error;
    }
    if (submission) {
      if (isSubmissionDone(submission)) {
        yield submission;
        return;
      }
      // Why it has no verdict yet; a server without the route, or a failed read, leaves it out.
      const progress = await client.submissions.progress(id, { timeoutMs: 10_000 }).catch(() => undefined);
      yield progress ? { ...submission, progress } : submission;
    }
    const interval = options.intervalMs ?? (Date.now() - started > 30_000 ? 2000 : 1000);
    await new Promise((resolve) => setTimeout(resolve, interval));
    if (options.signal?.aborted) return;
  }
}

function isTransient(error: unknown): boolean {
  const { name, status } = (error ?? {}) as { name?: string; status?: number };
  return (
    name === 'ConnectionError' ||
    name === 'TimeoutError' ||
    (typeof status === 'number' && (status >= 500 || status === 429))
  );
}
