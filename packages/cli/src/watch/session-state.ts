// The state a live session view shows, and how each event changes it (pure, so screens and tests share it).
import {
  type AgentSession,
  applySessionEvent,
  evaluationProgressText,
  type GenerationAttempt,
  type SessionEvent,
  type SessionProgress,
  type SessionStatus,
} from '@kernelforge/sdk';

/** Events from the server's stream, plus a fresh copy of the session fetched as a safety net. */
export type WatchEvent =
  | SessionEvent
  | { type: 'snapshot'; session: AgentSession }
  | { type: 'progress'; progress: SessionProgress };

export interface WatchState {
  /** The session as the events left it (folded by the sdk's applySessionEvent, as the web app does). */
  session: AgentSession;
  sessionId: string;
  name: string;
  problemName: string;
  device: string;
  status: SessionStatus;
  attempts: GenerationAttempt[];
  /** The agent's streamed text per attempt, kept while the attempt is generating. */
  streams: Record<string, string>;
  /** The attempt whose text arrived last. */
  streamingAttemptId: string | undefined;
  /** The last GET .../progress: the current attempt's queue position and estimate (polled with the snapshot). */
  progress: SessionProgress | undefined;
}

/** Keep the tail of an agent's text: a screen shows only its last lines. */
const STREAM_LIMIT = 4000;

export function initialWatchState(session: AgentSession): WatchState {
  return {
    session,
    sessionId: session.id,
    name: session.name,
    problemName: session.problem_name,
    device: session.device,
    status: session.status,
    attempts: sortAttempts(session.generation_attempts),
    streams: {},
    streamingAttemptId: undefined,
    progress: undefined,
  };
}

/** A session that is not working any more: the view ends. */
export function isSessionDone(status: SessionStatus): boolean {
  return status === 'idle' || status === 'stopped';
}

export function isAttemptDone(attempt: Pick<GenerationAttempt, 'status'>): boolean {
  return attempt.status === 'completed' || attempt.status === 'failed' || attempt.status === 'stopped';
}

export function applyWatchEvent(state: WatchState, event: WatchEvent): WatchState {
  switch (event.type) {
    case 'snapshot': {
      const next = initialWatchState(event.session);
      return {
        ...next,
        streams: keepStreams(state.streams, next.attempts),
        streamingAttemptId: state.streamingAttemptId,
        progress: state.progress,
      };
    }
    case 'progress':
      return { ...state, progress: event.progress };
    case 'attempt.created':
    case 'attempt.updated': {
      const session = applySessionEvent(state.session, event);
      const streams = isAttemptDone(event.attempt) ? without(state.streams, event.attempt.id) : state.streams;
      return { ...state, session, attempts: session.generation_attempts, streams };
    }
    case 'attempt.delta': {
      const text = ((state.streams[event.attempt_id] ?? '') + event.text).slice(-STREAM_LIMIT);
      return {
        ...state,
        streams: { ...state.streams, [event.attempt_id]: text },
        streamingAttemptId: event.attempt_id,
      };
    }
    case 'session.status':
      return { ...state, session: applySessionEvent(state.session, event), status: event.status };
    default:
      return state;
  }
}

/** The attempt being streamed now, with its text. */
export function currentStream(state: WatchState): { attempt: GenerationAttempt | undefined; text: string } | undefined {
  const id = state.streamingAttemptId;
  if (!id) return undefined;
  const text = state.streams[id];
  if (text === undefined) return undefined;
  return { attempt: state.attempts.find((a) => a.id === id), text };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function seconds(s: number): string {
  const whole = Math.max(0, Math.round(s));
  return whole >= 60 ? `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s` : `${whole} s`;
}

/**
 * The horizon of the attempt in flight, as the web's progress box says it: '#3 waiting: 2 evaluations ahead,
 * 1 running', or '#3 evaluating: usually about 40 s; about 25 s left (estimate)'. Undefined when the last report is
 * about an attempt or phase the events have since moved past, or has nothing to say.
 */
export function horizonLine(state: WatchState): string | undefined {
  const p = state.progress;
  const attempt = p ? state.attempts.find((a) => a.id === p.attempt_id) : undefined;
  if (!p || !attempt || attempt.status !== p.phase || isSessionDone(state.status)) return undefined;
  if (p.queue) {
    const noun = p.queue.job === 'evaluate' ? 'evaluation' : 'generation';
    const ahead = p.queue.ahead === 0 ? 'next in line' : `${plural(p.queue.ahead, noun)} ahead`;
    return `#${attempt.attempt_number} waiting: ${ahead}, ${p.queue.running} running`;
  }
  if (p.typical_seconds === null || p.estimate_seconds === null) return undefined;
  const left = p.estimate_seconds >= 1 ? `about ${seconds(p.estimate_seconds)} left` : 'taking longer than usual';
  return `#${attempt.attempt_number} ${attempt.status}: usually about ${seconds(Math.max(1, p.typical_seconds))}; ${left} (estimate)`;
}

/**
 * Which part of the evaluation in flight runs now, as the web's progress box says it: '#3 Timing case 1 of 2 ·
 * 37 samples'. Undefined when the last report is about another attempt or phase, or says nothing of it.
 */
export function evaluationLine(state: WatchState): string | undefined {
  const p = state.progress;
  const attempt = p ? state.attempts.find((a) => a.id === p.attempt_id) : undefined;
  if (!p?.evaluation || !attempt || isSessionDone(state.status)) return undefined;
  if (p.phase !== 'evaluating' || attempt.status !== 'evaluating') return undefined;
  return `#${attempt.attempt_number} ${evaluationProgressText(p.evaluation)}`;
}

export function attemptTime(attempt: GenerationAttempt): number | undefined {
  const time = attempt.evaluation_state?.benchmarking_result?.optimized_time;
  return typeof time === 'number' && Number.isFinite(time) ? time : undefined;
}

function sortAttempts(attempts: readonly GenerationAttempt[]): GenerationAttempt[] {
  return [...attempts].sort((a, b) => a.attempt_number - b.attempt_number);
}

function without(streams: Record<string, string>, id: string): Record<string, string> {
  if (!(id in streams)) return streams;
  const { [id]: _gone, ...rest } = streams;
  return rest;
}

function keepStreams(streams: Record<string, string>, attempts: GenerationAttempt[]): Record<string, string> {
  const live = new Set(attempts.filter((a) => !isAttemptDone(a)).map((a) => a.id));
  return Object.fromEntries(Object.entries(streams).filter(([id]) => live.has(id)));
}
