// Following a submission: re-read it until its evaluation is over, yielding each state seen.
import type { KernelforgeClient, SubmissionDetail } from '@kernelforge/sdk';

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
): AsyncGenerator<SubmissionDetail> {
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
      yield submission;
      if (isSubmissionDone(submission)) return;
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
