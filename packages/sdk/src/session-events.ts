// Folds one live session event into a session, so a view updates without refetching (the web's cache and the
// CLI's watch share it).
import { bestAttempt } from './helpers.js';
import type { AgentSession, GenerationAttempt, SessionEvent } from './schemas/index.js';

function withAttempts(session: AgentSession, attempts: GenerationAttempt[]): AgentSession {
  const sorted = [...attempts].sort((a, b) => a.attempt_number - b.attempt_number);
  const best = bestAttempt({ generation_attempts: sorted });
  const bestIsReal = best?.status === 'completed' && best.evaluation_state?.verdict === 'accepted';
  return { ...session, generation_attempts: sorted, best_attempt: bestIsReal ? best : session.best_attempt };
}

/** The session after `event`, or the same object when the event changes nothing it holds. */
export function applySessionEvent(session: AgentSession, event: SessionEvent): AgentSession {
  if (event.session_id !== session.id) return session;
  switch (event.type) {
    case 'attempt.created':
    case 'attempt.updated': {
      const others = session.generation_attempts.filter((a) => a.id !== event.attempt.id);
      return withAttempts(session, [...others, event.attempt]);
    }
    case 'instruction.updated': {
      const exists = session.user_instructions.some((i) => i.id === event.instruction.id);
      const instructions = exists
        ? session.user_instructions.map((i) => (i.id === event.instruction.id ? event.instruction : i))
        : [...session.user_instructions, event.instruction];
      return { ...session, user_instructions: instructions };
    }
    case 'session.status':
      return { ...session, status: event.status };
    default:
      return session;
  }
}
