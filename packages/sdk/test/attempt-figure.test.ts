// One figure per attempt (issue 35): the time it is ranked by with its interval, the speedup over the baseline timed
// beside it, why an attempt has none, and why a higher speedup need not be the best.
import { describe, expect, it } from 'vitest';
import { attemptFigure, figureText, rankingTime, speedupDisagreements, unrankedReason } from '../src/attempt-figure.js';
import { bestAttempt } from '../src/helpers.js';

const attempt = (n: number, verdict: string, time: number, speedup: number, baseline: number, spread = 0.02) => ({
  attempt_number: n,
  status: 'completed',
  evaluation_state: {
    verdict,
    benchmarking_result: {
      optimized_time: time,
      optimized_time_interval: [time * (1 - spread), time * (1 + spread)] as [number, number],
      speedup,
      baseline_time: baseline,
    },
  },
});

describe('an attempt figure', () => {
  it('is its measured time with the interval, and the speedup over the baseline timed beside it', () => {
    const a = attempt(3, 'accepted', 7.06, 1.58, 11.155, 0.4);
    expect(rankingTime(a)).toBe(7.06);
    expect(figureText(attemptFigure(a) ?? { time_ms: 0 })).toBe(
      '7.060 ms ±40% (1.58x the baseline timed beside it, 11.2 ms)',
    );
    expect(unrankedReason(a)).toBeUndefined();
  });

  it('an attempt whose verdict is not accepted has none, and says why', () => {
    const a = attempt(2, 'implausible', 2.1, 2.72, 5.7);
    expect(rankingTime(a)).toBeUndefined();
    expect(attemptFigure(a)).toBeUndefined();
    expect(unrankedReason(a)).toBe(
      'Not ranked: its verdict is implausible, so its time counts for nothing (only an accepted attempt can be the best or be submitted).',
    );
    expect(unrankedReason({ status: 'evaluating' })).toBeUndefined();
  });

  it('a higher speedup that is not the best is explained by the baselines timed beside each', () => {
    // Issue 35: #3 at 7.060 ms showed 1.58x while the best, #5, showed 1.54x at a lower time.
    const attempts = [
      attempt(2, 'accepted', 6.327, 1.05, 6.651),
      attempt(3, 'accepted', 7.06, 1.58, 11.155, 0.4),
      attempt(5, 'accepted', 5.9, 1.54, 9.086),
    ];
    const best = bestAttempt({ generation_attempts: attempts });
    expect(best?.attempt_number).toBe(5);
    expect(speedupDisagreements(attempts, best)).toEqual([
      "Attempt #3 shows a higher speedup (1.58x) than the best, #5 (1.54x), but a longer time (7.060 ms against 5.900 ms): each speedup is over the baseline timed beside that attempt, and #3's ran slower (11.2 ms against 9.086 ms). The best is the lowest time.",
    ]);
    expect(speedupDisagreements(attempts.slice(0, 1), attempts[0])).toEqual([]);
  });
});
