// @vitest-environment happy-dom
// Results readable at a glance: the folded diff, the correctness summary, confirmations, the session's progress,
// chart ticks, spreads and 'slower', and dead ends with a way on.
import type {
  AgentSession,
  BenchmarkingResult,
  CorrectnessCase,
  EvaluationState,
  GenerationAttempt,
  LeaderboardEntry,
} from '@kernelforge/sdk';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmButton } from '../src/components/ConfirmButton';
import { DefaultErrorView } from '../src/components/DefaultErrorView';
import { DiffView } from '../src/components/DiffView';
import { EvaluationReport } from '../src/components/EvaluationReport';
import { LeaderboardTable } from '../src/components/LeaderboardTable';
import { SessionProgress, evaluationText, horizonText, sessionProgress } from '../src/components/SessionProgress';
import { Speedup } from '../src/components/Speedup';
import { diffLines, unifiedDiff } from '../src/lib/diff';
import { logTicks } from '../src/lib/logScale';
import { withinNoise } from '../src/lib/noise';
import { type TimedProgress, useSessionProgress } from '../src/hooks/useSessionProgress';
import { bestPerDevice } from '../src/pages/LeaderboardsPage';
import { fakeApi, renderApp, settings } from './helpers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const lines = (n: number, change?: number) =>
  Array.from({ length: n }, (_, i) => (i + 1 === change ? `changed ${i + 1}` : `line ${i + 1}`)).join('\n');

describe('the diff', () => {
  it('keeps 3 lines of context around each change and folds the rest, with old and new line numbers', () => {
    const segments = unifiedDiff(diffLines(lines(40), lines(40, 20)), 3);
    expect(segments.map((s) => [s.kind, s.lines.length])).toEqual([
      ['fold', 16],
      ['lines', 8],
      ['fold', 17],
    ]);
    const shown = segments[1]?.kind === 'lines' ? segments[1].lines : [];
    expect(shown[0]).toMatchObject({ kind: 'same', oldNo: 17, newNo: 17 });
    expect(shown.find((l) => l.kind === 'removed')).toMatchObject({ text: 'line 20', oldNo: 20 });
    expect(shown.find((l) => l.kind === 'added')).toMatchObject({ text: 'changed 20', newNo: 20 });
  });

  it('folds the unchanged runs beyond 3 lines of context, unfolds one on click, and numbers the lines', async () => {
    render(<DiffView before={lines(40)} after={lines(40, 20)} label="Diff" />);
    const diff = screen.getByTestId('diff');
    await waitFor(() => expect(diff.querySelectorAll('.cm-collapsedLines')).toHaveLength(2));
    const folds = [...diff.querySelectorAll('.cm-collapsedLines')];
    expect(folds.map((f) => f.textContent)).toEqual(['16 unchanged lines', '17 unchanged lines']);
    const content = diff.querySelector('.cm-content') as HTMLElement;
    expect(content.textContent).not.toContain('line 5');
    expect(diff.querySelector('.cm-deletedChunk')?.textContent).toContain('line 20');
    expect(diff.querySelector('.cm-changedLine')?.textContent).toBe('changed 20');
    const numbers = [...diff.querySelectorAll('.cm-lineNumbers .cm-gutterElement')].map((e) => e.textContent);
    expect(numbers).toEqual(expect.arrayContaining(['17', '20', '23']));
    fireEvent.click(folds[0] as HTMLElement);
    await waitFor(() => expect(content.textContent).toContain('line 5'));
    expect(diff.querySelectorAll('.cm-collapsedLines')).toHaveLength(1);
  });

  it('side by side, the old source on the left and the new on the right, each changed line marked', async () => {
    render(<DiffView before={'a\nb\nc\nd'} after={'a\nB\nX\nd'} label="Diff" layout="split" />);
    const diff = screen.getByTestId('diff-split');
    await waitFor(() => expect(diff.querySelector('.cm-mergeView')).not.toBeNull());
    const changed = (side: 'a' | 'b') =>
      [...diff.querySelectorAll(`.cm-merge-${side} .cm-changedLine`)].map((l) => l.textContent);
    expect(changed('a')).toEqual(['b', 'c']);
    expect(changed('b')).toEqual(['B', 'X']);
    expect(screen.getByLabelText('Diff: before').textContent).toBe('abcd');
    expect(screen.getByLabelText('Diff: after').textContent).toBe('aBXd');
  });
});

const kase = (passed: boolean, i: number): CorrectnessCase => ({
  name: `n${i}`,
  sizes: { n: 17 + i },
  seed: i,
  distribution: 'uniform',
  passed,
  max_abs_error: passed ? 1e-7 * (i + 1) : 0.5,
  mean_abs_error: 0,
  max_rel_error: passed ? 1e-6 : 2,
  mean_rel_error: 0,
  ...(passed ? {} : { message: 'output y[3] differs' }),
});

const evaluation = (cases: CorrectnessCase[]): EvaluationState => ({
  verdict: cases.every((c) => c.passed) ? 'accepted' : 'incorrect',
  mode: 'benchmark',
  message: 'checked',
  compile: null,
  correctness: { passed: cases.every((c) => c.passed), cases },
  runner_seconds: 1,
  evaluated_at: '2026-01-01T00:00:00Z',
});

describe('the correctness summary', () => {
  it('says how many cases passed and the worst error, and lists only the failures', () => {
    fakeApi({ 'GET /api/v1/devices': { body: { data: [], count: 0 } } });
    const cases = [...Array.from({ length: 30 }, (_, i) => kase(true, i)), kase(false, 31)];
    render(<EvaluationReport state={evaluation(cases)} />);
    const summary = screen.getByTestId('correctness-summary').textContent ?? '';
    expect(summary).toContain('30 of 31 cases passed');
    expect(summary).toContain('worst abs error 5.00e-1');
    expect(screen.getAllByTestId('correctness-case')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Show all 31 cases' }));
    expect(screen.getAllByTestId('correctness-case')).toHaveLength(31);
  });

  it("another user's result: the figures, and the compile log and messages said to be the author's", () => {
    fakeApi({ 'GET /api/v1/devices': { body: { data: [], count: 0 } } });
    const failed = { ...kase(false, 2) };
    delete failed.message;
    const state: EvaluationState = {
      ...evaluation([kase(true, 1), failed]),
      compile: { ok: true, compiler: 'gcc', flags: ['-O3'], log: '', duration_ms: 40 },
      redacted: true,
    };
    render(<EvaluationReport state={state} />);
    expect(screen.getByText('The compile log is visible to the author only.')).toBeTruthy();
    expect(screen.queryByLabelText('Compile log')).toBeNull();
    expect(screen.getByTestId('figures-only').textContent).toContain('visible to the author only');
    expect(screen.getByTestId('correctness-summary').textContent).toContain('1 of 2 cases passed');
    expect(screen.queryByRole('columnheader', { name: 'Message' })).toBeNull();
  });

  it('shows no rows at all when every case passed', () => {
    fakeApi({ 'GET /api/v1/devices': { body: { data: [], count: 0 } } });
    render(<EvaluationReport state={evaluation(Array.from({ length: 40 }, (_, i) => kase(true, i)))} />);
    expect(screen.getByTestId('correctness-summary').textContent).toContain('40 of 40 cases passed');
    expect(screen.queryAllByTestId('correctness-case')).toHaveLength(0);
  });
});

describe('confirmation', () => {
  it('runs the action only after the second, explicit yes; Cancel runs nothing', () => {
    const revoke = vi.fn();
    render(
      <ConfirmButton question="Revoke laptop?" confirmLabel="Revoke token" onConfirm={revoke}>
        Revoke
      </ConfirmButton>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    expect(revoke).not.toHaveBeenCalled();
    expect(screen.getByRole('alertdialog').textContent).toContain('Revoke laptop?');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(revoke).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    fireEvent.click(screen.getByRole('button', { name: 'Revoke token' }));
    expect(revoke).toHaveBeenCalledTimes(1);
  });
});

const attempt = (n: number, status: GenerationAttempt['status'], instruction = 'i1'): GenerationAttempt => ({
  id: `a${n}`,
  session_id: 's1',
  instruction_id: instruction,
  attempt_number: n,
  status,
  language: 'c',
  source: null,
  explanation: null,
  evaluation_state: null,
  created_at: new Date(Date.now() - 65_000).toISOString(),
  finished_at: null,
});

const session = (status: AgentSession['status'], attempts: GenerationAttempt[]): AgentSession => ({
  id: 's1',
  owner_id: 'u1',
  problem_name: '19_ReLU',
  name: 'relu',
  label: 'relu',
  device: 'cpu-x86_64',
  status,
  agent: { provider: 'tuner' },
  custom: false,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  deleted_at: null,
  best_attempt: null,
  generation_attempts: attempts,
  user_instructions: [
    {
      id: 'i1',
      session_id: 's1',
      text: 'tile for L1',
      name: 'tile',
      starred: false,
      status: 'generating',
      max_attempts: 5,
      created_at: '2026-01-01T00:00:00Z',
      deleted_at: null,
    },
  ],
});

/** Shows what the progress hook has, for the test that it polls only while the session runs. */
function ProgressProbe({ running }: { running: boolean }) {
  const { data } = useSessionProgress('s1', running);
  return <p data-testid="probe">{data?.queue ? `${data.queue.ahead} ahead` : 'none'}</p>;
}

/** The progress hook for an attempt being evaluated, rendered again at each tick as the session page is. */
function EvaluatingProbe({ tick }: { tick: number }) {
  const { data } = useSessionProgress('s1', true, { id: 'a2', status: 'evaluating' });
  return (
    <p data-testid="probe" data-tick={tick}>
      {data?.evaluation?.stage ?? 'none'}
    </p>
  );
}

describe('a running session', () => {
  it("says 'Attempt 2 of 5', the phase, the streamed text and the time elapsed", () => {
    const s = session('active', [attempt(1, 'completed'), attempt(2, 'evaluating'), attempt(3, 'queued')]);
    render(<SessionProgress session={s} streamed={{ a2: 'trying 8x8 tiles' }} />);
    expect(screen.getByTestId('progress-count').textContent).toBe('Attempt 2 of 5');
    expect(screen.getByTestId('progress-phase').textContent).toBe('compiling, checking, timing');
    expect(screen.getByTestId('progress-elapsed').textContent).toMatch(/^1 min 0[5-9] s elapsed$/);
    expect(screen.getByText('trying 8x8 tiles')).toBeTruthy();
  });

  const report = (over: Partial<TimedProgress>): TimedProgress => ({
    attempt_id: 'a2',
    phase: 'evaluating',
    queue: null,
    phase_elapsed_seconds: null,
    estimate_seconds: null,
    typical_seconds: null,
    typical_from: null,
    fetched_at: Date.now(),
    ...over,
  });
  const running = () => session('active', [attempt(1, 'completed'), attempt(2, 'evaluating'), attempt(3, 'queued')]);

  it("while its evaluation waits, says how many are ahead and how many run ('2 evaluations ahead, 1 running')", () => {
    const waiting = report({ queue: { job: 'evaluate', ahead: 2, running: 1 }, typical_seconds: 40 });
    render(<SessionProgress session={running()} streamed={{}} report={waiting} />);
    expect(screen.getByTestId('progress-horizon').textContent).toBe('Waiting: 2 evaluations ahead, 1 running');
    // The rest of the box is as before.
    expect(screen.getByTestId('progress-count').textContent).toBe('Attempt 2 of 5');
    // Waiting, not "compiling, checking, timing" beside "Waiting: …" (issue 35 item 10).
    expect(screen.getByTestId('progress-phase').textContent).toBe('waiting for a runner');
    cleanup();
    const next = report({ phase: 'queued', attempt_id: 'a2', queue: { job: 'generate', ahead: 0, running: 1 } });
    expect(horizonText(next, { id: 'a2', status: 'queued' }, Date.now())?.text).toBe('next in line, 1 running');
    const one = report({ queue: { job: 'evaluate', ahead: 1, running: 0 } });
    expect(horizonText(one, { id: 'a2', status: 'evaluating' }, Date.now())?.text).toBe(
      '1 evaluation ahead, 0 running',
    );
  });

  it('while it runs, gives the usual duration and the time left as an estimate, counting down between polls', () => {
    const at = Date.now();
    const estimate = report({ estimate_seconds: 25, typical_seconds: 40, phase_elapsed_seconds: 15, fetched_at: at });
    render(<SessionProgress session={running()} streamed={{}} report={estimate} />);
    expect(screen.getByTestId('progress-horizon').textContent).toMatch(
      /^Estimate: usually about 40 s; about 2[45] s left$/,
    );
    const current = { id: 'a2', status: 'evaluating' } as const;
    expect(horizonText(estimate, current, at + 10_000)?.text).toBe('usually about 40 s; about 15 s left');
    expect(horizonText({ ...estimate, typical_seconds: 95, estimate_seconds: 80 }, current, at)?.text).toBe(
      'usually about 1 min 35 s; about 1 min 20 s left',
    );
  });

  it("past the usual duration says 'taking longer than usual', never a negative time", () => {
    const at = Date.now();
    const late = report({ estimate_seconds: 0, typical_seconds: 40, phase_elapsed_seconds: 67, fetched_at: at });
    const current = { id: 'a2', status: 'evaluating' } as const;
    expect(horizonText(late, current, at)?.text).toBe('usually about 40 s; taking longer than usual');
    expect(horizonText({ ...late, estimate_seconds: 3 }, current, at + 60_000)?.text).toBe(
      'usually about 40 s; taking longer than usual',
    );
  });

  it("shows which part of the evaluation runs: 'Compiling', 'Checking case 12 of 30', 'Timing case 1 of 2 · 37 samples'", () => {
    const timing = report({ evaluation: { stage: 'timing', case_index: 1, case_count: 2, samples: 37 } });
    render(<SessionProgress session={running()} streamed={{}} report={timing} />);
    expect(screen.getByTestId('progress-evaluation').textContent).toBe('Timing case 1 of 2 · 37 samples');
    const current = { id: 'a2', status: 'evaluating' } as const;
    const at = (evaluation: TimedProgress['evaluation']) => evaluationText(report({ evaluation }), current);
    expect(at({ stage: 'correctness', case_index: 12, case_count: 30, samples: 0 })).toBe('Checking case 12 of 30');
    expect(at({ stage: 'compiling', case_index: 0, case_count: 0, samples: 0 })).toBe('Compiling');
    expect(at({ stage: 'timing', case_index: 2, case_count: 2, samples: 1 })).toBe('Timing case 2 of 2 · 1 sample');
    // Nothing before the runner's first report, nor about another attempt or phase.
    expect(at(null)).toBeNull();
    expect(evaluationText({ ...timing, attempt_id: 'a1' }, current)).toBeNull();
    expect(evaluationText(timing, { id: 'a2', status: 'generating' })).toBeNull();
    cleanup();
    render(<SessionProgress session={running()} streamed={{}} report={report({})} />);
    expect(screen.queryByTestId('progress-evaluation')).toBeNull();
  });

  it("names the runner's waits: the timing lock (what holds it, about how long) and quiet (the busy cores)", () => {
    const since = new Date(Date.now() - 45_000).toISOString();
    const lock = report({
      evaluation: {
        stage: 'lock',
        case_index: 0,
        case_count: 2,
        samples: 0,
        wait: {
          since,
          max_seconds: 120,
          holder: 'held by a ranked evaluation, timing case 2 of 5',
          holder_until: new Date(Date.now() + 600_000).toISOString(),
        },
      },
    });
    render(<SessionProgress session={running()} streamed={{}} report={lock} />);
    expect(screen.getByTestId('progress-phase').textContent).toBe('waiting for the timing lock');
    expect(screen.getByTestId('progress-evaluation').textContent).toMatch(
      /^Waiting for the timing lock \(one evaluation is timed at a time on this machine\): held by a ranked evaluation, timing case 2 of 5, about (9|10) min \d\d s more · waiting \d+ s, at most 2 min 00 s, then it is timed anyway$/,
    );
    cleanup();
    const quiet = report({
      evaluation: {
        stage: 'quiet',
        case_index: 0,
        case_count: 0,
        samples: 0,
        wait: { since, max_seconds: 60, busy_cores: 1.64, cores: 2, quiet_below: 0.5 },
      },
    });
    render(<SessionProgress session={running()} streamed={{}} report={quiet} />);
    expect(screen.getByTestId('progress-phase').textContent).toBe('waiting for the machine to quiet');
    expect(screen.getByTestId('progress-evaluation').textContent).toMatch(
      /^Waiting for the machine to quiet before timing again: other work keeps 1\.6 of 2 cores busy \(quiet is under 0\.5\) · waiting \d+ s, at most 1 min 00 s, then it is timed anyway and flagged$/,
    );
  });

  it('says nothing of a report about another attempt or phase, or without an earlier attempt to go by', () => {
    const current = { id: 'a2', status: 'evaluating' } as const;
    expect(horizonText(report({ attempt_id: 'a1', estimate_seconds: 5, typical_seconds: 9 }), current, 0)).toBeNull();
    expect(
      horizonText(report({ phase: 'generating', estimate_seconds: 5, typical_seconds: 9 }), current, 0),
    ).toBeNull();
    expect(horizonText(report({}), current, 0)).toBeNull();
    expect(horizonText(undefined, current, 0)).toBeNull();
    render(<SessionProgress session={running()} streamed={{}} report={report({})} />);
    expect(screen.queryByTestId('progress-horizon')).toBeNull();
  });

  it('polls the progress route only while the session runs', async () => {
    const body = {
      attempt_id: 'a2',
      phase: 'evaluating',
      queue: { job: 'evaluate', ahead: 3, running: 1 },
      phase_elapsed_seconds: null,
      estimate_seconds: null,
      typical_seconds: null,
      typical_from: null,
    };
    const { calls } = fakeApi({ 'GET /api/v1/agent-session/s1/progress': { body } });
    const cache = new Map();
    const { rerender } = render(
      <SWRConfig value={{ provider: () => cache }}>
        <ProgressProbe running={false} />
      </SWRConfig>,
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toEqual([]);
    rerender(
      <SWRConfig value={{ provider: () => cache }}>
        <ProgressProbe running />
      </SWRConfig>,
    );
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('3 ahead'));
    expect(calls).toEqual(['GET /api/v1/agent-session/s1/progress']);
  });

  it("polls an evaluating attempt's report every second, however often the page renders", async () => {
    // The page renders on every event (streamed text ten times a second): each render once restarted SWR's poll
    // timer, and its 2 s deduping window swallowed every other 1 s poll, so a short evaluation's checking and
    // timing were never fetched.
    const body = {
      attempt_id: 'a2',
      phase: 'evaluating',
      queue: null,
      phase_elapsed_seconds: 1,
      estimate_seconds: null,
      typical_seconds: null,
      typical_from: null,
      evaluation: { stage: 'correctness', case_index: 1, case_count: 5, samples: 0 },
    };
    const { calls } = fakeApi({ 'GET /api/v1/agent-session/s1/progress': { body } });
    const cache = new Map();
    const { rerender } = render(
      <SWRConfig value={{ provider: () => cache }}>
        <EvaluatingProbe tick={0} />
      </SWRConfig>,
    );
    const started = Date.now();
    for (let tick = 1; Date.now() - started < 3500; tick++) {
      await new Promise((r) => setTimeout(r, 100));
      rerender(
        <SWRConfig value={{ provider: () => cache }}>
          <EvaluatingProbe tick={tick} />
        </SWRConfig>,
      );
    }
    // At 0 s and about 1, 2 and 3 s (a loaded machine may push the last past 3.5 s); before, once.
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(calls.length).toBeLessThanOrEqual(5);
  });

  it('shows nothing once the session is idle or stopped', () => {
    expect(sessionProgress(session('idle', [attempt(1, 'completed')]))).toBeNull();
    expect(sessionProgress(session('stopped', [attempt(1, 'queued')]))).toBeNull();
  });
});

describe('numbers at a glance', () => {
  it('ticks a log axis at powers of 2, or of 10 over a wide span, always holding 1x', () => {
    expect(logTicks(0.6, 3.1)).toEqual([0.5, 1, 2, 4]);
    expect(logTicks(0.01, 50)).toEqual([0.01, 0.1, 1, 10, 100]);
  });

  it('marks a speedup below 1x as slower, and tells noise from a difference by overlapping 95% intervals', () => {
    render(<Speedup value={0.8} />);
    expect(screen.getByText('slower')).toBeTruthy();
    const timed = (t: number, lo: number, hi: number) =>
      ({ optimized_time: t, optimized_time_interval: [lo, hi] }) as unknown as BenchmarkingResult;
    expect(withinNoise(timed(1.0, 0.98, 1.02), timed(1.03, 1.01, 1.05))).toBe(true);
    expect(withinNoise(timed(1.0, 0.99, 1.01), timed(1.2, 1.19, 1.21))).toBe(false);
  });

  it('a speedup whose 95% interval holds 1.00x reads "same as baseline", never "slower"; one that excludes it does', () => {
    const { unmount, container } = render(<Speedup value={0.97} interval={[0.93, 1.02]} />);
    expect(screen.queryByText('slower')).toBeNull();
    expect(screen.getByText(/same as baseline/)).toBeTruthy();
    expect(container.textContent).toMatch(/\(0\.93.–1\.02.\)/);
    unmount();
    render(<Speedup value={0.8} interval={[0.75, 0.85]} />);
    expect(screen.getByText('slower')).toBeTruthy();
    cleanup();
    // Without an interval, a figure that rounds to 1.00x is no difference either.
    render(<Speedup value={0.998} />);
    expect(screen.queryByText('slower')).toBeNull();
    expect(screen.getByText(/same as baseline/)).toBeTruthy();
  });
});

const entry = (device: string, time_ms: number, flagged = false): LeaderboardEntry => ({
  rank: 1,
  submission_id: `s-${device}-${time_ms}`,
  user: { id: 'u1', full_name: null, display_name: 'Ada' },
  problem_name: '19_ReLU',
  device,
  time_ms,
  speedup: 1,
  flagged_for_review: flagged,
  review_reasons: flagged ? ['speedup 12.0x is over 10x'] : [],
  runs: 1,
  within_noise_of_previous: false,
  created_at: '2026-11-23T00:00:00.000Z',
});

describe('the leaderboard table', () => {
  it('shows each time with its spread, how many runs stand behind a row, and rows within noise of the row above', () => {
    render(
      <LeaderboardTable
        entries={[
          { ...entry('cpu', 2), time_interval: [1.98, 2.02], runs: 3 },
          {
            ...entry('cpu', 2.01),
            rank: 2,
            submission_id: 's2',
            time_interval: [1.99, 2.05],
            within_noise_of_previous: true,
          },
        ]}
      />,
    );
    expect(screen.getByText('±1.0%')).toBeTruthy();
    expect(screen.getAllByTestId('within-noise')).toHaveLength(1);
    expect(screen.getByText(/within noise of the row above: their 95% time intervals overlap/)).toBeTruthy();
    const runs = screen.getAllByRole('row').map((r) => r.querySelectorAll('td')[6]?.textContent);
    expect(runs.slice(1)).toEqual(['3', '1']);
  });
});

describe('the leaderboards overview', () => {
  it('takes the best unflagged entry per device, and a flagged one only where a device has nothing else', () => {
    const best = bestPerDevice({
      problem_name: '19_ReLU',
      title: 'ReLU',
      count: 4,
      entries: [entry('cpu', 0.5, true), entry('cpu', 2), entry('cpu', 1), entry('gpu', 0.1, true)],
    });
    expect(best.map((e) => [e.device, e.time_ms, e.flagged_for_review])).toEqual([
      ['cpu', 1, false],
      ['gpu', 0.1, true],
    ]);
  });
});

describe('dead ends', () => {
  it("gives 'Session not found' and 'Problem ID is required' a way on, with the message still behind Show Error", () => {
    const { unmount } = render(<DefaultErrorView error={new Error('Session not found')} />);
    expect(screen.getByRole('link', { name: 'Go to my sessions' }).getAttribute('href')).toBe('/sessions');
    expect(screen.queryByText('Session not found')).toBeNull();
    unmount();
    render(<DefaultErrorView error={new Error('Problem ID is required')} />);
    expect(screen.getByRole('link', { name: 'Go to the leaderboards' }).getAttribute('href')).toBe('/leaderboard/');
  });

  it('explains /verify-email without a token and offers to send the mail again', async () => {
    const { calls } = fakeApi({
      'GET /api/v1/settings': { body: settings },
      'POST /auth/users/register/email-verification-token': { body: { message: 'sent' } },
    });
    renderApp('/verify-email');
    expect(await screen.findByText('Token is required')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send the email again' }));
    expect(await screen.findByText('We sent a new verification link to ada@example.com.')).toBeTruthy();
    expect(calls).toContain('POST /auth/users/register/email-verification-token');
  });
});
