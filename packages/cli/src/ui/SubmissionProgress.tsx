// The progress line of `kforge submit --wait`: status and elapsed time, then the verdict.
import type { Submission, SubmissionDetail } from '@kernelforge/sdk';
import { Box, Text, useApp } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { formatDuration, formatMs, formatSpeedup } from '../output/format.js';
import { type FollowedSubmission, isAccepted, isSubmissionDone, submissionWaitLine } from '../watch/submission.js';

export interface SubmissionResult {
  submission: SubmissionDetail;
}

export interface SubmissionProgressProps {
  initial: Submission;
  updates: AsyncIterable<FollowedSubmission>;
  /** The clock, injectable for tests. */
  now?: () => number;
  /** How often the elapsed time redraws (default 100 ms; 0 turns the ticker off). */
  tickMs?: number;
  /** Told the final submission just before the screen exits. */
  onExit?: (result: SubmissionResult) => void;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export function SubmissionProgress({
  initial,
  updates,
  now = Date.now,
  tickMs = 100,
  onExit,
}: SubmissionProgressProps) {
  const { exit } = useApp();
  const [submission, setSubmission] = useState<Submission | FollowedSubmission>(initial);
  const [tick, setTick] = useState(0);
  const started = useRef(now());

  useEffect(() => {
    if (!tickMs) return;
    const timer = setInterval(() => setTick((t) => t + 1), tickMs);
    return () => clearInterval(timer);
  }, [tickMs]);

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      try {
        for await (const update of updates) {
          if (cancelled) return;
          setSubmission(update);
          if (isSubmissionDone(update)) return;
        }
      } catch (error) {
        if (!cancelled) exit(error instanceof Error ? error : new Error(String(error)));
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [updates, exit]);

  // Exit after the verdict has rendered, so it is the last frame on screen.
  useEffect(() => {
    if (!isSubmissionDone(submission)) return;
    const result: SubmissionResult = { submission: submission as SubmissionDetail };
    onExit?.(result);
    exit(result);
  }, [submission, exit, onExit]);

  const elapsed = formatDuration(now() - started.current);
  const where = `${submission.problem_name} on ${submission.device}`;
  if (!isSubmissionDone(submission)) {
    // Why it has no verdict yet: its place in the queue, or what its runner does (its waits named).
    const wait = 'progress' in submission ? submissionWaitLine(submission) : undefined;
    return (
      <Box flexDirection="column">
        <Text>
          <Text color="cyan">{SPINNER[tick % SPINNER.length]}</Text> {where} · {submission.status} · {elapsed}
        </Text>
        {wait ? <Text dimColor>{wait}</Text> : null}
      </Box>
    );
  }
  if (isAccepted(submission)) {
    const rank = 'rank' in submission && submission.rank ? ` · rank #${submission.rank}` : '';
    return (
      <Text>
        <Text color="green">✓ accepted</Text> {where} · {formatMs(submission.time_ms)} ·{' '}
        {formatSpeedup(submission.speedup)}
        {rank}
      </Text>
    );
  }
  const verdict = submission.verdict ?? submission.evaluation_state?.verdict ?? submission.status;
  const message = submission.error ?? submission.evaluation_state?.message;
  return (
    <Box flexDirection="column">
      <Text>
        <Text color="red">✗ {verdict}</Text> {where}
      </Text>
      {message ? <Text dimColor>{message}</Text> : null}
    </Box>
  );
}
