// Where a running session is: which attempt of how many, the phase of the current one, the agent's streamed text
// and the time since the attempt started. Shown only while the session is running.
import type { AgentSession } from '@kernelforge/sdk';
import { useEffect, useState } from 'react';

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

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

export function SessionProgress({ session, streamed }: { session: AgentSession; streamed: Record<string, string> }) {
  const progress = sessionProgress(session);
  const now = useNow(progress !== null);
  if (!progress) return null;
  const { current, index, total, instruction } = progress;
  const phase = PHASES.findIndex((p) => p.status === current.status);
  const text = streamed[current.id];
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
            · #{current.attempt_number} is{' '}
            <span data-testid="progress-phase">{PHASES[phase]?.label ?? current.status}</span>
          </span>
        </p>
        <p className="text-sm text-sky-800 tabular-nums dark:text-sky-200" data-testid="progress-elapsed">
          {formatElapsed(now - Date.parse(current.created_at))} elapsed
        </p>
      </div>
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
