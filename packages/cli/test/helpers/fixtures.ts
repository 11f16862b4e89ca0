// Wire objects in the sdk's shapes for the screen tests (parsed, so a contract change breaks them loudly).
import {
  AgentSession,
  type EvaluationState,
  GenerationAttempt,
  type SessionEvent,
  Submission,
  SubmissionDetail,
} from '@kernelforge/sdk';

const NOW = '2026-11-21T12:00:00.000Z';
export const SESSION_ID = '11111111-1111-4111-8111-111111111111';

export function evaluation(verdict: EvaluationState['verdict'], timeMs?: number, speedup = 1.5): EvaluationState {
  return {
    verdict,
    mode: 'benchmark',
    message:
      verdict === 'accepted' ? `accepted: ${speedup}x faster than the reference` : `${verdict}: output y[0] differs`,
    compile: null,
    correctness: null,
    benchmarking_result:
      timeMs === undefined
        ? null
        : {
            optimized_time: timeMs,
            baseline_time: timeMs * speedup,
            speedup,
            gbps: 10,
            gflops: 1,
            fraction_of_peak: 0.5,
            cases: [],
            flagged_for_review: false,
            review_reasons: [],
          },
    runner_seconds: 1,
    evaluated_at: NOW,
  };
}

export function attempt(number: number, overrides: Partial<GenerationAttempt> = {}): GenerationAttempt {
  return GenerationAttempt.parse({
    id: `00000000-0000-4000-8000-00000000000${number}`,
    session_id: SESSION_ID,
    instruction_id: null,
    attempt_number: number,
    status: 'queued',
    language: 'c',
    source: null,
    explanation: null,
    evaluation_state: null,
    created_at: NOW,
    finished_at: null,
    ...overrides,
  });
}

export function session(overrides: Partial<AgentSession> = {}): AgentSession {
  return AgentSession.parse({
    id: SESSION_ID,
    owner_id: '22222222-2222-4222-8222-222222222222',
    problem_name: '19_ReLU',
    name: 'relu session',
    label: 'ReLU',
    device: 'cpu-x86_64',
    status: 'active',
    agent: { provider: 'tuner', model: null },
    created_at: NOW,
    updated_at: NOW,
    deleted_at: null,
    best_attempt: null,
    generation_attempts: [],
    user_instructions: [],
    ...overrides,
  });
}

export function submission(overrides: Partial<SubmissionDetail> = {}): SubmissionDetail {
  return SubmissionDetail.parse({
    id: '33333333-3333-4333-8333-333333333333',
    user: { id: '22222222-2222-4222-8222-222222222222', full_name: null, display_name: 'cli' },
    problem_name: '19_ReLU',
    device: 'cpu-x86_64',
    language: 'c',
    source: null,
    status: 'queued',
    verdict: null,
    time_ms: null,
    speedup: null,
    evaluation_state: null,
    created_at: NOW,
    finished_at: null,
    rank: null,
    ...overrides,
  });
}

export function queuedSubmission(): Submission {
  const { rank: _rank, ...rest } = submission();
  return Submission.parse(rest);
}

export type { SessionEvent };

/** An async iterable a test pushes into, one item at a time. */
export class Channel<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #wake: (() => void) | undefined;
  #closed = false;

  push(item: T): void {
    this.#items.push(item);
    this.#wake?.();
  }

  close(): void {
    this.#closed = true;
    this.#wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      const item = this.#items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.#closed) return;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      this.#wake = undefined;
    }
  }
}

/** Waits until `check` passes (ink renders asynchronously). */
export async function eventually(check: () => void, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
