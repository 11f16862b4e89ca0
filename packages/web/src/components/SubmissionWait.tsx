// Why a submission has no verdict yet, in words: its place in the device's queue (and why it waits again after a try
// ended), or what its runner is doing and how long evaluations of its kind (ranked, or test runs) here usually take.
import { evaluationProgressText, type SubmissionProgress } from '@kernelforge/sdk';
import { useSubmissionProgress } from '../hooks/useSubmissionProgress';
import { formatElapsed } from './SessionProgress';
import { Spinner } from './Spinner';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const about = (seconds: number) => `about ${formatElapsed(Math.max(1, seconds) * 1000)}`;

/** The wait in one or two sentences (exported for its unit test). */
export function submissionWaitText(
  status: 'queued' | 'evaluating',
  device: string,
  report: SubmissionProgress | undefined,
  purpose: 'submit' | 'test' = 'submit',
): { line: string; detail: string | null } {
  const usually =
    report?.typical_seconds != null
      ? `${purpose === 'test' ? 'Test runs' : 'Ranked evaluations'} of this problem on ${device} usually take ${about(report.typical_seconds)} (each is timed twice).`
      : null;
  if (report?.phase === 'queued' && report.queue) {
    const { ahead, running } = report.queue;
    const place = ahead === 0 ? 'next in line' : `${plural(ahead, 'evaluation')} ahead of it`;
    return {
      line: `Waiting for a runner on ${device}: ${place}, ${running} running now.`,
      detail: [report.notice ? `It waits again: ${report.notice}.` : null, usually].filter(Boolean).join(' ') || null,
    };
  }
  if (report?.phase === 'evaluating') {
    const part = report.evaluation ? evaluationProgressText(report.evaluation) : 'Starting';
    const elapsed =
      report.phase_elapsed_seconds != null ? ` · ${formatElapsed(report.phase_elapsed_seconds * 1000)} so far` : '';
    const left =
      report.estimate_seconds != null
        ? report.estimate_seconds >= 1
          ? `; ${about(report.estimate_seconds)} left`
          : '; taking longer than usual'
        : '';
    return { line: `Evaluating: ${part}${elapsed}${left}.`, detail: usually };
  }
  return {
    line: status === 'queued' ? `Waiting for a runner on ${device}.` : 'Evaluating: Starting.',
    detail: null,
  };
}

export function SubmissionWait({
  id,
  status,
  device,
  purpose,
}: {
  id: string;
  status: 'queued' | 'evaluating';
  device: string;
  purpose?: 'submit' | 'test' | undefined;
}) {
  const { data } = useSubmissionProgress(id, true);
  const { line, detail } = submissionWaitText(status, device, data, purpose);
  return (
    <div className="mt-3 space-y-1" data-testid="submission-wait" aria-live="polite">
      <Spinner label={`${line} This page follows it to its verdict.`} />
      {detail ? <p className="text-sm text-slate-600 dark:text-slate-400">{detail}</p> : null}
    </div>
  );
}
