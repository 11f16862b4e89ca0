// @vitest-environment happy-dom
// One believable number per attempt (issue 35): an attempt whose verdict is not accepted is never drawn as accepted
// (not ranked in the table, no best badge, no point on the chart) and its Submit button says why it is disabled; a
// higher speedup that is not the best says why.
import type { BenchmarkingResult, EvaluationState, GenerationAttempt } from '@kernelforge/sdk';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { AttemptTable } from '../src/components/AttemptTable';
import { SubmitAttemptButton } from '../src/components/SubmitAttemptButton';
import { submissionWaitText } from '../src/components/SubmissionWait';

afterEach(cleanup);

const bench = (time: number, speedup: number, baseline: number): BenchmarkingResult => ({
  optimized_time: time,
  optimized_time_interval: [time * 0.98, time * 1.02],
  baseline_time: baseline,
  speedup,
  gbps: 1,
  gflops: 1,
  fraction_of_peak: 0.1,
  cases: [],
  flagged_for_review: false,
  review_reasons: [],
});

const attempt = (n: number, verdict: EvaluationState['verdict'], b: BenchmarkingResult): GenerationAttempt => ({
  id: `a${n}`,
  session_id: 's1',
  instruction_id: 'i1',
  attempt_number: n,
  status: 'completed',
  language: 'c',
  source: 'void solution(void) {}',
  explanation: null,
  evaluation_state: {
    verdict,
    mode: 'benchmark',
    message: verdict,
    compile: null,
    correctness: null,
    benchmarking_result: b,
    runner_seconds: 1,
    evaluated_at: '2026-01-01T00:00:00Z',
  },
  created_at: '2026-01-01T00:00:00Z',
  finished_at: null,
});

const inRouter = (node: React.ReactNode) =>
  render(<Router hook={memoryLocation({ path: '/kernels/s1' }).hook}>{node}</Router>);

describe('an attempt whose verdict is not accepted', () => {
  // Issue 35: the tuner's start point, 2.72x, called implausible against a peak measured under load.
  const rejected = attempt(1, 'implausible', bench(2.1, 2.72, 5.7));

  it('is "not ranked" in the table, with why, and never the best', () => {
    inRouter(
      <AttemptTable sessionId="s1" attempts={[rejected, attempt(2, 'accepted', bench(4.6, 1.24, 5.7))]} bestId="a2" />,
    );
    const [first, second] = screen.getAllByTestId('attempt-row') as HTMLElement[];
    const notRanked = within(first as HTMLElement).getByTestId('not-ranked');
    expect(notRanked.getAttribute('title')).toMatch(/^Not ranked: its verdict is implausible/);
    expect(first?.textContent).not.toMatch(/2\.100 ms|2\.72/);
    expect(first?.textContent).not.toMatch(/best/);
    expect(second?.textContent).toMatch(/best/);
    expect(screen.getByTestId('figure-notes').textContent).toMatch(
      /"Not ranked": the attempt's verdict is not accepted/,
    );
  });

  it('has its Submit button disabled with the reason written beside it', () => {
    inRouter(<SubmitAttemptButton session={{ problem_name: '19_ReLU', device: 'cpu' }} attempt={rejected} />);
    const button = screen.getByRole('button', { name: 'Submit to leaderboard' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('submit-why-not').textContent).toBe(
      "Only an accepted attempt can be submitted: this one's verdict is implausible.",
    );
    expect(screen.getByRole('button', { name: 'Submit to leaderboard' }).getAttribute('title')).toBe(
      "Only an accepted attempt can be submitted: this one's verdict is implausible.",
    );
    cleanup();
    inRouter(
      <SubmitAttemptButton
        session={{ problem_name: '19_ReLU', device: 'cpu' }}
        attempt={attempt(2, 'accepted', bench(4.6, 1.24, 5.7))}
      />,
    );
    expect((screen.getByRole('button', { name: 'Submit to leaderboard' }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByTestId('submit-why-not')).toBeNull();
  });
});

it('a higher speedup than the best, at a longer time, is explained under the table', () => {
  const attempts = [attempt(3, 'accepted', bench(7.06, 1.58, 11.155)), attempt(5, 'accepted', bench(5.9, 1.54, 9.086))];
  inRouter(<AttemptTable sessionId="s1" attempts={attempts} bestId="a5" />);
  expect(screen.getByTestId('figure-notes').textContent).toContain(
    "Attempt #3 shows a higher speedup (1.58x) than the best, #5 (1.54x), but a longer time (7.060 ms against 5.900 ms): each speedup is over the baseline timed beside that attempt, and #3's ran slower (11.2 ms against 9.086 ms). The best is the lowest time.",
  );
});

describe("a submission's wait", () => {
  const report = {
    phase: 'evaluating' as const,
    queue: null,
    phase_elapsed_seconds: 3,
    estimate_seconds: 9,
    typical_seconds: 12,
    evaluation: null,
    notice: null,
  };
  it('names the kind of evaluation its estimate comes from: ranked ones, or test runs (both timed twice)', () => {
    expect(submissionWaitText('evaluating', 'cpu-x86_64', report).detail).toBe(
      'Ranked evaluations of this problem on cpu-x86_64 usually take about 12 s (each is timed twice).',
    );
    expect(submissionWaitText('evaluating', 'cpu-x86_64', report, 'test').detail).toBe(
      'Test runs of this problem on cpu-x86_64 usually take about 12 s (each is timed twice).',
    );
  });
});
