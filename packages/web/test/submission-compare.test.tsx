// @vitest-environment happy-dom
// Comparing two submissions (issue 23): the diff when the viewer may read both sources, figures only (and why) when
// one is another user's, 'within noise' when their time intervals overlap, a note when they are not comparable; and
// the ways in: "Compare with…" on a submission's page, tick two in "Your submissions".
import type { BenchmarkingResult, SubmissionDetail } from '@kernelforge/sdk';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { MySubmissionsTable } from '../src/components/MySubmissions';
import { findRoute } from '../src/routes';
import { currentPath, fakeApi, jwt, renderApp, settings, user } from './helpers';

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('access_token', jwt(3600));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const me = { id: 'u1', full_name: 'Ada', display_name: 'Ada' };
const someoneElse = { id: 'u2', full_name: null, display_name: 'quiet-otter-42' };

const bench = (time: number, interval?: [number, number]): BenchmarkingResult => ({
  optimized_time: time,
  baseline_time: 2,
  speedup: 2 / time,
  gbps: 1,
  gflops: 1,
  fraction_of_peak: 0.1,
  cases: [],
  flagged_for_review: false,
  review_reasons: [],
  ...(interval ? { optimized_time_interval: interval } : {}),
});

const submission = (id: string, over: Partial<SubmissionDetail> & { bench?: BenchmarkingResult }): SubmissionDetail => {
  const { bench: result = bench(1), ...rest } = over;
  return {
    id,
    user: me,
    problem_name: '19_ReLU',
    device: 'cpu-x86_64',
    language: 'c',
    source: `int ${id} = 1;\n`,
    status: 'completed',
    verdict: 'accepted',
    time_ms: result.optimized_time,
    speedup: result.speedup,
    evaluation_state: {
      verdict: 'accepted',
      mode: 'ranked',
      message: 'accepted',
      compile: null,
      correctness: null,
      benchmarking_result: result,
      runner_seconds: 1,
      evaluated_at: '2026-01-01T00:00:00Z',
    },
    created_at: id === 'sa' ? '2026-01-01T00:00:00Z' : '2026-01-02T00:00:00Z',
    finished_at: '2026-01-02T00:00:01Z',
    rank: null,
    ...rest,
  };
};

function serve(...subs: SubmissionDetail[]) {
  const table: Parameters<typeof fakeApi>[0] = {
    'GET /api/v1/settings': { body: settings },
    'GET /auth/users/me': { body: user },
    'GET /api/v1/submission': { body: { data: subs, count: subs.length } },
  };
  for (const s of subs) table[`GET /api/v1/leaderboard/submission/${s.id}`] = { body: s };
  return fakeApi(table);
}

describe('comparing two submissions', () => {
  it('routes /leaderboard/submission/{a}/compare/{b} to the compare page, not the submission page', () => {
    expect(findRoute('/leaderboard/submission/sa/compare/sb')?.params).toEqual({ a: 'sa', b: 'sb' });
    expect(findRoute('/leaderboard/submission/sa')?.params).toEqual({ submissionId: 'sa' });
  });

  it('shows the diff of the two sources when the viewer can read both, side by side with ?view=split', async () => {
    serve(
      submission('sa', { bench: bench(2, [1.9, 2.1]) }),
      submission('sb', { bench: bench(1, [0.95, 1.05]), device: 'cpu-x86_64' }),
    );
    renderApp('/leaderboard/submission/sa/compare/sb');
    expect(await screen.findByRole('heading', { name: 'Compare submissions', level: 1 })).toBeTruthy();
    expect(document.title).toContain('Compare submissions');
    const a = screen.getByTestId('figures-A');
    expect(a.textContent).toMatch(/User\s*Ada/);
    expect(a.textContent).toMatch(/Problem\s*19_ReLU/);
    expect(a.textContent).toMatch(/Device\s*cpu-x86_64/);
    expect(a.textContent).toMatch(/Verdict\s*accepted/);
    // Time with its spread from the 95% interval (±5% of 2 ms), the interval itself in its title.
    expect(within(a).getByTestId('time-spread').textContent).toBe('±5.0%');
    expect(within(a).getByTestId('time-spread').getAttribute('title')).toBe('95% interval 1.900 ms–2.100 ms');
    expect(screen.getByTestId('compare-change').textContent).toBe('B is 2.00× faster than A.');
    expect(screen.getByTestId('diff')).toBeTruthy();
    expect(screen.queryByTestId('source-hidden')).toBeNull();
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeTruthy();
    cleanup();

    renderApp('/leaderboard/submission/sa/compare/sb?view=split');
    expect(await screen.findByTestId('diff-split')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Side by side' }).getAttribute('aria-selected')).toBe('true');
  });

  it("compares by figures only when one source is another user's, and says whose it is", async () => {
    serve(submission('sa', {}), submission('sb', { user: someoneElse, source: null }));
    renderApp('/leaderboard/submission/sa/compare/sb');
    const note = await screen.findByTestId('source-hidden');
    expect(note.textContent).toBe(
      "Compared by figures only: the source of B is quiet-otter-42's, visible to its owner only.",
    );
    expect(screen.queryByTestId('diff')).toBeNull();
    expect(screen.queryByRole('tablist', { name: 'Diff layout' })).toBeNull();
    expect(screen.getByTestId('figures-B').textContent).toMatch(/User\s*quiet-otter-42/);
    expect(screen.getByTestId('compare-change')).toBeTruthy();
  });

  it('says two times are the same within noise when their 95% intervals overlap', async () => {
    serve(submission('sa', { bench: bench(1.02, [0.98, 1.06]) }), submission('sb', { bench: bench(1, [0.96, 1.04]) }));
    renderApp('/leaderboard/submission/sa/compare/sb');
    const change = await screen.findByTestId('compare-change');
    expect(change.textContent).toBe('B and A take the same time, within noise (1.02×).');
    expect(change.textContent).not.toMatch(/faster|slower/);
  });

  it('says which is slower, and by how much, when the intervals are apart', async () => {
    serve(submission('sa', { bench: bench(1, [0.98, 1.02]) }), submission('sb', { bench: bench(1.5, [1.45, 1.55]) }));
    renderApp('/leaderboard/submission/sa/compare/sb');
    expect((await screen.findByTestId('compare-change')).textContent).toBe('B is 1.50× slower than A.');
  });

  it('still shows the figures of submissions to different problems, with a note that they are not comparable', async () => {
    serve(submission('sa', {}), submission('sb', { problem_name: '20_LeakyReLU', device: 'cpu-arm64' }));
    renderApp('/leaderboard/submission/sa/compare/sb');
    const note = await screen.findByTestId('not-comparable');
    expect(note.textContent).toMatch(/^Not comparable: /);
    expect(note.textContent).toContain('different problems (19_ReLU and 20_LeakyReLU)');
    expect(note.textContent).toContain('different devices (cpu-x86_64 and cpu-arm64)');
    expect(screen.getByTestId('figures-A').textContent).toMatch(/Time/);
    expect(screen.getByTestId('figures-B').textContent).toMatch(/Problem\s*20_LeakyReLU/);
    // No "faster" across problems.
    expect(screen.queryByTestId('compare-change')).toBeNull();
  });

  it("an unknown id: 'Something went wrong: Not Found' with a way back", async () => {
    serve(submission('sa', {}));
    renderApp('/leaderboard/submission/sa/compare/nope');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Something went wrong: Not Found')).toBeTruthy();
    expect(within(alert).getByRole('link', { name: 'Go to all leaderboards' }).getAttribute('href')).toBe(
      '/leaderboard/',
    );
  });
});

describe('ways into a comparison', () => {
  it('"Compare with…" on a submission\'s page lists the viewer\'s other submissions to the problem, older first', async () => {
    serve(submission('sa', {}), submission('sb', {}));
    const { location } = renderApp('/leaderboard/submission/sb');
    const picker = await screen.findByLabelText('Compare with…');
    expect(within(picker).getAllByRole('option')).toHaveLength(1);
    fireEvent.click(screen.getByRole('link', { name: 'Compare' }));
    expect(currentPath(location)).toBe('/leaderboard/submission/sa/compare/sb');
    expect(await screen.findByRole('heading', { name: 'Compare submissions', level: 1 })).toBeTruthy();
  });

  it('ticks two of "Your submissions" to compare them; a third tick replaces the first', () => {
    fakeApi({ 'GET /api/v1/problems': { body: { data: [], count: 0 } } });
    const location = memoryLocation({ path: '/kernels/submit', record: true });
    render(
      <Router hook={location.hook}>
        <MySubmissionsTable
          total={3}
          submissions={[submission('sc', {}), submission('sb', {}), submission('sa', {})]}
        />
      </Router>,
    );
    expect(screen.getByText('Tick two to compare them')).toBeTruthy();
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes).toHaveLength(3);
    fireEvent.click(boxes[1] as HTMLElement);
    expect(screen.queryByRole('link', { name: 'Compare the two' })).toBeNull();
    fireEvent.click(boxes[2] as HTMLElement);
    expect(screen.getByRole('link', { name: 'Compare the two' }).getAttribute('href')).toBe(
      '/leaderboard/submission/sa/compare/sb',
    );
    fireEvent.click(boxes[0] as HTMLElement);
    expect((boxes[1] as HTMLInputElement).checked).toBe(false);
    expect(screen.getByRole('link', { name: 'Compare the two' }).getAttribute('href')).toBe(
      '/leaderboard/submission/sa/compare/sc',
    );
  });
});
