// Live session events sent over SSE at GET /api/v1/agent-session/{id}/events.
import { z } from 'zod';
import { Text, Timestamp } from './common.js';
import { GenerationAttempt, SessionStatus, UserInstruction } from './session.js';

export const SessionEvent = z.discriminatedUnion('type', [
  /** A new attempt, whole (queued, or evaluating when its source was given). */
  z.object({ type: z.literal('attempt.created'), session_id: Text, attempt: GenerationAttempt }),
  /** A chunk of the agent's streamed text for an attempt being generated. */
  z.object({ type: z.literal('attempt.delta'), session_id: Text, attempt_id: Text, text: Text }),
  /**
   * The attempt, whole, after a status change: one event per change (generating, evaluating, completed, failed,
   * stopped), so the last one a client saw is the attempt as it stands.
   */
  z.object({ type: z.literal('attempt.updated'), session_id: Text, attempt: GenerationAttempt }),
  z.object({ type: z.literal('instruction.updated'), session_id: Text, instruction: UserInstruction }),
  z.object({ type: z.literal('session.status'), session_id: Text, status: SessionStatus }),
  z.object({ type: z.literal('session.updated'), session_id: Text }),
]);
export type SessionEvent = z.infer<typeof SessionEvent>;
export type SessionEventType = SessionEvent['type'];

/**
 * A short-lived, single-use ticket to open one session's event stream as `?ticket=`: for clients that cannot send
 * an Authorization header (the browser's EventSource), so no bearer token ever appears in a URL.
 */
export const EventTicket = z.object({ ticket: Text, expires_at: Timestamp });
export type EventTicket = z.infer<typeof EventTicket>;

/** Seconds an event ticket stays valid; it is spent by the first stream that presents it. */
export const EVENT_TICKET_SECONDS = 60;
