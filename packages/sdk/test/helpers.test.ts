import { describe, expect, it } from 'vitest';
import { bestAttempt, isNewUser, problemTitle } from '../src/helpers.js';

type A = {
  id: string;
  status: string;
  evaluation_state: { benchmarking_result?: { optimized_time?: number } | null } | null;
};
const attempt = (id: string, status: string, time?: number): A => ({
  id,
  status,
  evaluation_state:
    time === undefined ? { benchmarking_result: null } : { benchmarking_result: { optimized_time: time } },
});
// bestAttempt only reads status and the time, so the narrow shape above is enough.
const best = (attempts: A[]) => bestAttempt({ generation_attempts: attempts as never[] }) as A | undefined;

describe('bestAttempt (spec section 2)', () => {
  it('picks the completed attempt with the lowest optimized_time', () => {
    const attempts = [attempt('a', 'completed', 3), attempt('b', 'completed', 1.5), attempt('c', 'completed', 2)];
    expect(best(attempts)?.id).toBe('b');
  });

  it('ignores attempts that are not completed, however fast', () => {
    const attempts = [attempt('a', 'completed', 3), attempt('b', 'failed', 0.1), attempt('c', 'evaluating', 0.2)];
    expect(best(attempts)?.id).toBe('a');
  });

  it('counts a completed attempt with no time as the largest', () => {
    const attempts = [attempt('a', 'completed'), attempt('b', 'completed', 9)];
    expect(best(attempts)?.id).toBe('b');
  });

  it('takes the first completed attempt when no completed attempt has a time', () => {
    const attempts = [attempt('a', 'queued'), attempt('b', 'completed'), attempt('c', 'completed')];
    expect(best(attempts)?.id).toBe('b');
  });

  it('falls back to the first attempt when none is completed', () => {
    const attempts = [attempt('a', 'failed', 1), attempt('b', 'queued')];
    expect(best(attempts)?.id).toBe('a');
  });

  it('is undefined when there are no attempts', () => {
    expect(best([])).toBeUndefined();
  });

  it('an attempt whose verdict is not accepted carries no time: never the best while an accepted one exists', () => {
    // Issue 35: an implausible attempt (its figures kept in its report) was the fastest, and was marked best.
    const implausible = {
      id: 'fast',
      status: 'completed',
      evaluation_state: { verdict: 'implausible', benchmarking_result: { optimized_time: 1 } },
    };
    const accepted = {
      id: 'honest',
      status: 'completed',
      evaluation_state: { verdict: 'accepted', benchmarking_result: { optimized_time: 3 } },
    };
    expect(best([implausible, accepted] as A[])?.id).toBe('honest');
    // With no accepted attempt, the spec's fallback: the first completed one.
    expect(best([implausible] as A[])?.id).toBe('fast');
  });

  it('treats a null evaluation_state as no time', () => {
    const attempts: A[] = [{ id: 'a', status: 'completed', evaluation_state: null }, attempt('b', 'completed', 4)];
    expect(best(attempts)?.id).toBe('b');
  });
});

describe('problemTitle', () => {
  it('turns underscores to spaces', () => {
    expect(problemTitle('1_Square_matrix_multiplication_')).toBe('1 Square matrix multiplication ');
    expect(problemTitle('19_ReLU')).toBe('19 ReLU');
  });
});

describe('isNewUser (300 s)', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  it('is true within 300 seconds of creation', () => {
    expect(isNewUser({ created_at: '2026-11-21T11:55:01Z' }, now)).toBe(true);
    expect(isNewUser({ created_at: '2026-11-21T11:55:00Z' }, now)).toBe(true);
  });
  it('is false after 300 seconds', () => {
    expect(isNewUser({ created_at: '2026-11-21T11:54:59Z' }, now)).toBe(false);
  });
  it('is false for an unreadable date', () => {
    expect(isNewUser({ created_at: 'yesterday' }, now)).toBe(false);
  });
});
