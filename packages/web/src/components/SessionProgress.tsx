// Where a running session is: which attempt of how many, the phase of the current one, its place in the queue or how
// long the phase usually takes, the agent's streamed text and the time since the attempt started. Shown only while the
// session is running.
import { type AgentSession, evaluationProgressText, type GenerationAttempt } from '@kernelforge/sdk';
import { useEffect, useState } from 'react';
import type { TimedProgress } from '../hooks/useSessionProgress';

const PHASES = [
  { status: 'queued', label: 'queued' },
  { status: 'generating', label: 'generating' },
  { status: 'evaluating', label: 'compiling, checking, timing' },
] as const;

export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const m = Math.floor(s / 60);
  return m > 0 ? `${m} min ${String(s % 60).padStart(2, '0')} s` : `${s} s`;
}

/** The running instruction's attempts and the one in flight, or null when nothing runs. */
export function sessionProgress(session: AgentSession) {
  const current = session.generation_attempts.find((a) => ['queued', 'generating', 'evaluating'].includes(a.status));
  if (session.status !== 'active' || !current) return null;
  const instruction = session.user_instructions.find((i) => i.id === current.instruction_id);
  const ofInstruction = session.generation_attempts.filter((a) => a.instruction_id === current.instruction_id);
  const index = ofInstruction.findIndex((a) => a.id === current.id) + 1;
  const total = Math.max(instruction?.max_attempts ?? ofInstruction.length, ofInstruction.length);
  return { current, index, total, instruction };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The horizon line for the attempt in flight: while its job waits, the queue ('2 evaluations ahead, 1 running');
 * while it runs, the estimate ('usually about 40 s; about 25 s left', counted down from the last poll, never below
 * zero: past it, 'taking longer than usual'). Null when the report is about another attempt or phase (the event
 * stream got there first), or has nothing to say.
 */
export function horizonText(
  report: TimedProgress | undefined,
  current: Pick<GenerationAttempt, 'id' | 'status'>,
  now: number,
): { kind: 'queue' | 'estimate'; text: string } | null {
  if (!report || report.attempt_id !== current.id || report.phase !== current.status) return null;
  if (report.queue) {
    const { job, ahead, running } = report.queue;
    const noun = job === 'evaluate' ? 'evaluation' : 'generation';
    return {
      kind: 'queue',
      text: `${ahead === 0 ? 'next in line' : `${plural(ahead, noun)} ahead`}, ${running} running`,
    };
  }
  const typical = report.typical_seconds;
  if (typical === null || report.estimate_seconds === null) return null;
  const usually = `usually about ${formatElapsed(Math.max(1, typical) * 1000)}`;
  const left = report.estimate_seconds - Math.max(0, now - report.fetched_at) / 1000;
  return {
    kind: 'estimate',
    text: left >= 1 ? `${usually}; about ${formatElapsed(left * 1000)} left` : `${usually}; taking longer than usual`,
  };
}

/**
 * Which part of the attempt's evaluation runs now ('Timing case 1 of 2 · 37 samples'), as its runner last reported
 * it; null when the report is about another attempt or phase, or says nothing of it yet.
 */
export function evaluationText(
  report: TimedProgress | undefined,
  current: Pick<GenerationAttempt, 'id' | 'status'>,
): string | null {
  if (!report?.evaluation || report.attempt_id !== current.id || current.status !== 'evaluating') return null;
  if (report.phase !== 'evaluating') return null;
  return evaluationProgressText(report.evaluation);
}

/**
 * The current attempt's phase in words. While its job waits in a queue (the report says so), it is waiting, not
 * compiling, checking and timing: "#7 is waiting for a runner" beside "Waiting: next in line, 1 running"; likewise
 * while its runner waits for the timing lock or for quiet.
 */
export function phaseLabel(
  report: TimedProgress | undefined,
  current: Pick<GenerationAttempt, 'id' | 'status'>,
): string {
  if (report?.queue && report.attempt_id === current.id && report.phase === current.status)
    return report.queue.job === 'evaluate' ? 'waiting for a runner' : 'waiting for an agent';
  // Its runner waits inside the evaluation: for the device's timing lock, or for the machine to quiet (issue 35).
  const stage = evaluationText(report, current) !== null ? report?.evaluation?.stage : undefined;
  if (stage === 'lock') return 'waiting for the timing lock';
  if (stage === 'quiet') return 'waiting for the machine to quiet';
  return PHASES.find((p) => p.status === current.status)?.label ?? current.status;
}

/**
 * When `text` last changed, as this page saw it (the report is polled every second): a runner's report that stays the
 * same for long ("Checking case 5 of 5" for 16 s) is said to be unchanged, with for how long, rather than shown as if
 * it were news.
 */
function useChangedAt(text: string | null): number {
  const [seen, setSeen] = useState<{ text: string | null; at: number }>(() => ({ text, at: Date.now() }));
  if (seen.text !== text) {
    const next = { text, at: Date.now() };
    setSeen(next);
    return next.at;
  }
  return seen.at;
}

/** After this long without a change, the evaluation's line says so. */
export const UNCHANGED_AFTER_S = 10;

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

export function SessionProgress({
  session,
  streamed,
  report,
}: {
  session: AgentSession;
  streamed: Record<string, string>;
  /** GET .../progress, polled by the page while the session runs; absent, the box shows no horizon. */
  report?: TimedProgress | undefined;
}) {
  const progress = sessionProgress(session);
  const now = useNow(progress !== null);
  const evaluation = progress ? evaluationText(report, progress.current) : null;
  const changedAt = useChangedAt(evaluation);
  if (!progress) return null;
  const unchanged = Math.floor((now - changedAt) / 1000);
  const { current, index, total, instruction } = progress;
  const phase = PHASES.findIndex((p) => p.status === current.status);
  const text = streamed[current.id];
  const horizon = horizonText(report, current, now);
  return (
    <section
      aria-label="Progress"
      data-testid="session-progress"
      className="mb-6 rounded-lg border border-sky-200 bg-sky-50 p-4 dark:border-sky-900 dark:bg-sky-950/40"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <p className="font-semibold text-sky-900 dark:text-sky-100">
          <span data-testid="progress-count">
            Attempt {index} of {total}
          </span>
          <span className="font-normal text-sky-800 dark:text-sky-200">
            {' '}
            · #{current.attempt_number} is <span data-testid="progress-phase">{phaseLabel(report, current)}</span>
          </span>
        </p>
        <p className="text-sm text-sky-800 tabular-nums dark:text-sky-200" data-testid="progress-elapsed">
          {formatElapsed(now - Date.parse(current.created_at))} elapsed
        </p>
      </div>
      {evaluation ? (
        <p
          className="mt-1 text-sm font-medium text-sky-900 tabular-nums dark:text-sky-100"
          data-testid="progress-evaluation"
          aria-live="polite"
          title="As the runner last reported it"
        >
          {evaluation}
          {unchanged >= UNCHANGED_AFTER_S ? ` · unchanged for ${unchanged} s` : ''}
        </p>
      ) : null}
      {horizon ? (
        <p
          className="mt-1 text-sm text-sky-800 tabular-nums dark:text-sky-200"
          data-testid="progress-horizon"
          title={
            horizon.kind === 'queue'
              ? 'Jobs of higher or equal priority queued earlier; the queue also lets users with fewer jobs running go first'
              : report?.typical_from === 'session'
                ? "From this session's earlier attempts"
                : 'From your recent attempts on this problem and device'
          }
        >
          {horizon.kind === 'queue' ? 'Waiting: ' : 'Estimate: '}
          {horizon.text}
        </p>
      ) : null}
      {instruction ? (
        <p className="mt-1 truncate text-sm text-sky-800 dark:text-sky-200">Instruction: {instruction.text}</p>
      ) : null}
      <ol className="mt-3 flex flex-wrap gap-2 text-xs" aria-label="Phases">
        {PHASES.map((p, i) => (
          <li
            key={p.status}
            aria-current={i === phase ? 'step' : undefined}
            className={`rounded-full px-2.5 py-1 ${
              i === phase
                ? 'bg-sky-600 font-semibold text-white'
                : i < phase
                  ? 'bg-sky-200 text-sky-900 dark:bg-sky-900 dark:text-sky-100'
                  : 'bg-white text-slate-500 dark:bg-slate-900 dark:text-slate-400'
            }`}
          >
            {p.label}
          </li>
        ))}
      </ol>
      {text ? (
        <pre
          aria-live="polite"
          className="mt-3 max-h-40 overflow-auto rounded bg-white p-2 text-xs whitespace-pre-wrap text-slate-700 dark:bg-slate-950 dark:text-slate-300"
        >
          {text}
        </pre>
      ) : null}
    </section>
  );
}
