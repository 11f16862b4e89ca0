// Live session events sent over SSE at GET /api/v1/agent-session/{id}/events.
import { z } from 'zod';
import { AttemptStatus, GenerationAttempt, SessionStatus, UserInstruction } from './session.js';

export const SessionEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('attempt.created'), session_id: z.string(), attempt: GenerationAttempt }),
  z.object({
    type: z.literal('attempt.status'),
    session_id: z.string(),
    attempt_id: z.string(),
    status: AttemptStatus,
  }),
  /** A chunk of the agent's streamed text for an attempt being generated. */
  z.object({ type: z.literal('attempt.delta'), session_id: z.string(), attempt_id: z.string(), text: z.string() }),
  /** The attempt after evaluation (or failure), whole. */
  z.object({ type: z.literal('attempt.updated'), session_id: z.string(), attempt: GenerationAttempt }),
  z.object({ type: z.literal('instruction.updated'), session_id: z.string(), instruction: UserInstruction }),
  z.object({ type: z.literal('session.status'), session_id: z.string(), status: SessionStatus }),
  z.object({ type: z.literal('session.updated'), session_id: z.string() }),
]);
export type SessionEvent = z.infer<typeof SessionEvent>;
export type SessionEventType = SessionEvent['type'];
