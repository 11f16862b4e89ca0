// Small rules of the spec that every face applies the same way.
import type { GenerationAttempt } from './schemas/session.js';

/** Spec section 9: a user created within 300 seconds of login counts as new. */
export const NEW_USER_WINDOW_SECONDS = 300;

type AttemptLike = Pick<GenerationAttempt, 'status'> & {
  evaluation_state?:
    | { benchmarking_result?: { optimized_time?: number | null | undefined } | null | undefined }
    | null
    | undefined;
};

/**
 * Spec section 2: the completed attempt with the lowest `evaluation_state.benchmarking_result.optimized_time`;
 * an attempt with no time counts as the largest; if none is completed, the first attempt.
 */
export function bestAttempt<A extends AttemptLike>(session: { generation_attempts: readonly A[] }): A | undefined {
  const attempts = session.generation_attempts;
  let best: A | undefined;
  let bestTime = Number.POSITIVE_INFINITY;
  for (const attempt of attempts) {
    if (attempt.status !== 'completed') continue;
    const time = attempt.evaluation_state?.benchmarking_result?.optimized_time;
    const value = typeof time === 'number' && Number.isFinite(time) ? time : Number.POSITIVE_INFINITY;
    // Strictly lower wins, so among equals (or all without a time) the earliest completed attempt stays.
    if (best === undefined || value < bestTime) {
      best = attempt;
      bestTime = value;
    }
  }
  return best ?? attempts[0];
}

/** `1_Square_matrix_multiplication_` -> `1 Square matrix multiplication ` (underscores to spaces). */
export function problemTitle(name: string): string {
  return name.replace(/_/g, ' ');
}

/** Spec sections 4 and 9: the account was created within the last 300 s. */
export function isNewUser(user: { created_at: string }, now: Date = new Date()): boolean {
  const created = Date.parse(user.created_at);
  if (Number.isNaN(created)) return false;
  const age = now.getTime() - created;
  return age >= -60_000 && age <= NEW_USER_WINDOW_SECONDS * 1000;
}
