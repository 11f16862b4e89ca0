// @vitest-environment happy-dom
// Every time and speedup with its 95% interval (issue 20): spreads from the interval, never from the standard
// deviation; 'within noise' as overlapping intervals; the session chart as each accepted attempt's time on a log axis
// with error bars; an attempt whose verdict is not accepted drawn as not ranked.
import type { BenchmarkCase, BenchmarkingResult, EvaluationState, GenerationAttempt } from '@kernelforge/sdk';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { AttemptChart } from '../src/components/AttemptChart';
import { AttemptTable } from '../src/components/AttemptTable';
import { EvaluationReport } from '../src/components/EvaluationReport';
import { TimeWithSpread } from '../src/components/Speedup';
import { formatRatioTick, logTicks } from '../src/lib/logScale';
import { spreadOf, withinNoise } from '../src/lib/noise';
import { fakeApi } from './helpers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

type Pair = [number, number];

const kase = (median: number, interval?: Pair, stddev = median * 3): BenchmarkCase => ({
  name: 'n',
  sizes: { n: 1024 },
  optimized: { mean_ms: median, median_ms: median, min_ms: median, max_ms: median, stddev_ms: stddev, samples: 20 },
  baseline: { mean_ms: 2, median_ms: 2, min_ms: 2, max_ms: 2, stddev_ms: 0, samples: 20 },
  speedup: 2 / median,
  gbps: 1,
  gflops: 1,
  fraction_of_peak: 0.1,
  fraction_of_peak_bandwidth: 0.1,
  fraction_of_peak_flops: 0.01,
  ...(interval ? { optimized_interval: interval } : {}),
});

const result = (
  time: number,
  opts: { timeInterval?: Pair; speedup?: number; speedupInterval?: Pair; cases?: BenchmarkCase[] } = {},
): BenchmarkingResult => ({
  optimized_time: time,
  baseline_time: 2,
  speedup: opts.speedup ?? 2 / time,
  gbps: 1,
  gflops: 1,
  fraction_of_peak: 0.1,
  // A huge standard deviation, as the user who saw '±160.7%' had: it must never show.
  cases: opts.cases ?? [kase(time, undefined, time * 1.607)],
  flagged_for_review: false,
  review_reasons: [],
  ...(opts.timeInterval ? { optimized_time_interval: opts.timeInterval } : {}),
  ...(opts.speedupInterval ? { speedup_interval: opts.speedupInterval } : {}),
});

const state = (bench: BenchmarkingResult | null): EvaluationState => ({
  verdict: bench ? 'accepted' : 'incorrect',
  mode: 'benchmark',
  message: 'checked',
  compile: null,
  correctness: null,
  benchmarking_result: bench,
  runner_seconds: 1,
  evaluated_at: '2026-01-01T00:00:00Z',
});

const attempt = (
  n: number,
  bench: BenchmarkingResult | null,
  status: GenerationAttempt['status'] = 'completed',
): GenerationAttempt => ({
  id: `a${n}`,
  session_id: 's1',
  instruction_id: 'i1',
  attempt_number: n,
  status,
  language: 'c',
  source: null,
  explanation: null,
  evaluation_state: status === 'completed' ? state(bench) : null,
  created_at: '2026-01-01T00:00:00Z',
  finished_at: null,
});

describe('the spread of a time', () => {
  it('is the half-width of its 95% interval over the time, labelled as the interval', () => {
    expect(spreadOf(2, [1.9, 2.1])).toEqual({ text: '±5.0%', title: '95% interval 1.900 ms–2.100 ms' });
    expect(spreadOf(1.156, [1.15, 1.162])?.text).toBe('±0.5%');
    expect(spreadOf(1, [0.9995, 1.0005])?.text).toBe('±0.05%');
    expect(spreadOf(1, [0.5, 1.5])?.text).toBe('±50%');
  });

  it('is left out where the runner measured no interval: never a standard deviation instead', () => {
    expect(spreadOf(1.156, undefined)).toBeUndefined();
    expect(spreadOf(undefined, [1, 2])).toBeUndefined();
    expect(spreadOf(0, [0, 0])).toBeUndefined();
    render(<TimeWithSpread ms={1.156} />);
    expect(screen.getByText('1.156 ms')).toBeTruthy();
    expect(screen.queryByTestId('time-spread')).toBeNull();
    cleanup();
    render(<TimeWithSpread ms={1.156} interval={[1.15, 1.162]} />);
    const spread = screen.getByTestId('time-spread');
    expect(spread.textContent).toBe('±0.5%');
    expect(spread.getAttribute('title')).toBe('95% interval 1.150 ms–1.162 ms');
  });

  it("in a report: the result's time and each case's median carry their own interval, or nothing", () => {
    fakeApi({ 'GET /api/v1/devices': { body: { data: [], count: 0 } } });
    const bench = result(1.5, {
      timeInterval: [1.47, 1.53],
      cases: [kase(1, [0.99, 1.01]), kase(0.5)],
    });
    render(<EvaluationReport state={state(bench)} />);
    const spreads = screen.getAllByTestId('time-spread');
    expect(spreads.map((s) => s.textContent)).toEqual(['±2.0%', '±1.0%']);
    for (const s of spreads) expect(s.getAttribute('title')).toMatch(/^95% interval /);
    expect(document.body.textContent).not.toContain('160.7');
  });
});

describe("a case's data against the last-level cache", () => {
  it('is said under the case where it fits in the cache or was not flushed, and not otherwise', () => {
    fakeApi({ 'GET /api/v1/devices': { body: { data: [], count: 0 } } });
    const mib = 2 ** 20;
    const bench = result(1.5, {
      cases: [
        { ...kase(1), cache: { bytes: 64 * mib, llc_bytes: 260 * mib, fits_llc: true, from_memory: true } },
        { ...kase(0.5), cache: { bytes: 4 * mib, llc_bytes: 260 * mib, fits_llc: true, from_memory: false } },
        { ...kase(0.5), cache: { bytes: 1024 * mib, llc_bytes: 260 * mib, fits_llc: false, from_memory: true } },
      ],
    });
    render(<EvaluationReport state={state(bench)} />);
    const notes = screen.getAllByTestId('case-cache').map((n) => n.textContent);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/64\.0 MiB\) fits in the 260\.0 MiB last-level cache; the caches were flushed/);
    expect(notes[1]).toMatch(/cache-resident, so its GB\/s is not held to the memory bandwidth peak/);
  });
});

describe('within noise', () => {
  it('holds when the two times’ 95% intervals overlap, and never when either has none', () => {
    const a = result(1.0, { timeInterval: [0.98, 1.02] });
    expect(withinNoise(a, result(1.03, { timeInterval: [1.02, 1.04] }))).toBe(true);
    expect(withinNoise(a, result(1.05, { timeInterval: [1.03, 1.07] }))).toBe(false);
    expect(withinNoise(a, result(1.0))).toBe(false);
    expect(withinNoise(undefined, a)).toBe(false);
  });

  it('marks an attempt whose time interval overlaps the best one’s as "≈ best"', () => {
    const attempts = [
      attempt(1, result(1.0, { timeInterval: [0.98, 1.02] })),
      attempt(2, result(1.01, { timeInterval: [1.0, 1.02] })),
      attempt(3, result(1.01)),
      attempt(4, result(1.5, { timeInterval: [1.45, 1.55] })),
    ];
    render(<AttemptTable sessionId="s1" attempts={attempts} bestId="a1" />);
    const rows = screen.getAllByTestId('attempt-row');
    expect(rows.map((r) => r.textContent?.includes('≈ best, within noise'))).toEqual([false, true, false, false]);
    expect(within(rows[0] as HTMLElement).getByTestId('time-spread').textContent).toBe('±2.0%');
    expect(within(rows[2] as HTMLElement).queryByTestId('time-spread')).toBeNull();
  });
});

describe('log ticks', () => {
  it('span the data and 1x at powers of 2', () => {
    expect(logTicks(0.6, 3.1)).toEqual([0.5, 1, 2, 4]);
    expect(logTicks(0.3, 0.9)).toEqual([0.25, 0.5, 1]);
    expect(logTicks(1.1, 1.3)).toEqual([1, 2]);
    expect(logTicks(2, 8)).toEqual([1, 2, 4, 8]);
    expect(logTicks(1, 1)).toEqual([0.5, 1, 2]);
  });

  it('switch to powers of 10 when powers of 2 would be too many', () => {
    expect(logTicks(0.2, 30)).toEqual([0.1, 1, 10, 100]);
    expect(logTicks(0.6, 3.1, 3)).toEqual([0.1, 1, 10]);
  });

  it('read as ratios', () => {
    expect([0.25, 0.5, 1, 2, 16, 0.01].map(formatRatioTick)).toEqual(['0.25×', '0.5×', '1×', '2×', '16×', '0.01×']);
  });
});

describe('the session chart', () => {
  const implausible = (n: number, bench: BenchmarkingResult): GenerationAttempt => ({
    ...attempt(n, bench),
    evaluation_state: { ...state(bench), verdict: 'implausible', message: 'implausible: case n: above the peak' },
  });
  const attempts = [
    attempt(1, result(2.5, { timeInterval: [2.3, 2.7], speedupInterval: [0.7, 0.9] })),
    attempt(2, null, 'failed'),
    attempt(3, result(0.8, { timeInterval: [0.76, 0.84], speedupInterval: [2.3, 2.7] })),
    attempt(4, result(1.05)),
    // Faster than all, but its verdict is not accepted: it has no time to draw (issue 35).
    implausible(5, result(0.3, { timeInterval: [0.29, 0.31] })),
  ];

  /** The chart drawn at a given width, as a phone's layout would give it. */
  function drawAt(width: number) {
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(private readonly cb: (entries: { contentRect: { width: number } }[]) => void) {}
        observe() {
          this.cb([{ contentRect: { width } }]);
        }
        disconnect() {}
      },
    );
    const location = memoryLocation({ path: '/kernels/s1', record: true });
    const utils = render(
      <Router hook={location.hook}>
        <AttemptChart attempts={attempts} bestId="a3" sessionId="s1" />
      </Router>,
    );
    return { ...utils, location };
  }

  it("plots each accepted attempt's time on a log axis, with its interval; the best is the lowest, circled", () => {
    drawAt(640);
    const points = screen.getAllByTestId('chart-point');
    expect(points.map((p) => p.getAttribute('aria-label'))).toEqual([
      'Attempt #1: 2.500 ms ±8.0% (0.80x the baseline timed beside it, 2.000 ms)',
      'Attempt #3: 800.0 µs ±5.0% (2.50x the baseline timed beside it, 2.000 ms)',
      'Attempt #4: 1.050 ms (1.90x the baseline timed beside it, 2.000 ms)',
    ]);
    expect(screen.getAllByTestId('chart-error-bar')).toHaveLength(2);
    expect(screen.getAllByTestId('chart-tick').map((t) => t.textContent)).toEqual(['500 µs', '1 ms', '2 ms', '5 ms']);
    const baseline = screen.getByTestId('chart-baseline');
    expect(baseline.textContent).toBe('its baseline 2.000 ms');
    // The dashed line (the baseline timed beside the best) sits on the 2 ms tick, and the axis is logarithmic: equal
    // ratios are equal distances.
    const lineY = Number(baseline.querySelector('line')?.getAttribute('y1'));
    const tickY = (label: string) =>
      Number(
        screen
          .getAllByTestId('chart-tick')
          .find((t) => t.textContent === label)
          ?.querySelector('line')
          ?.getAttribute('y1'),
      );
    expect(lineY).toBeCloseTo(tickY('2 ms'));
    expect(tickY('500 µs') - tickY('1 ms')).toBeCloseTo(tickY('1 ms') - tickY('2 ms'));
    const cy = (i: number) => Number(points[i]?.getAttribute('cy'));
    // Lower is faster: the best (#3) is drawn below the slower #1, and #1 above its baseline.
    expect(cy(1)).toBeGreaterThan(cy(0));
    expect(cy(0)).toBeLessThan(lineY);
    const ring = screen.getByTestId('chart-best').querySelector('circle');
    expect(ring?.getAttribute('cx')).toBe(points[1]?.getAttribute('cx'));
    expect(ring?.getAttribute('cy')).toBe(points[1]?.getAttribute('cy'));
    expect(screen.getByTestId('chart-best').textContent).toBe('best #3 800.0 µs');
    expect(screen.getByText(/Time of each accepted attempt, the figure the best is chosen by/)).toBeTruthy();
  });

  it('keeps its text off the plot, so no label covers a point, and fits a 390 px phone at real size', () => {
    const { container } = drawAt(358);
    const svg = container.querySelector('svg') as SVGSVGElement;
    expect(svg.getAttribute('width')).toBe('358');
    expect(svg.getAttribute('viewBox')).toBe('0 0 358 260');
    const points = screen.getAllByTestId('chart-point');
    const xs = points.map((p) => Number(p.getAttribute('cx')));
    const ys = points.map((p) => Number(p.getAttribute('cy')));
    const [left, right, top, bottom] = [
      Math.min(...xs) - 10,
      Math.max(...xs) + 10,
      Math.min(...ys) - 10,
      Math.max(...ys) + 10,
    ];
    for (const text of Array.from(svg.querySelectorAll('text'))) {
      const x = Number(text.getAttribute('x'));
      const y = Number(text.getAttribute('y'));
      // Each label is left of the plot (ticks), below it (attempt numbers) or above it (the legend).
      const clear = x < left || y - 12 > bottom || y < top;
      expect(clear, `"${text.textContent}" at ${x},${y}`).toBe(true);
      expect(x).toBeLessThanOrEqual(358);
    }
    // Attempt numbers are on the x axis.
    expect(Array.from(svg.querySelectorAll('text')).map((t) => t.textContent)).toEqual(
      expect.arrayContaining(['#1', '#2', '#3', '#4', '#5']),
    );
    expect(right).toBeLessThanOrEqual(358);
  });

  it('opens an attempt from its point', () => {
    const { location } = drawAt(640);
    fireEvent.click(screen.getAllByTestId('chart-point')[1] as Element);
    expect(location.history[location.history.length - 1]).toBe('/kernels/s1/attempts/a3');
  });

  it('says so when no attempt is timed yet', () => {
    drawAt(640);
    cleanup();
    render(<AttemptChart attempts={[attempt(1, null, 'failed')]} bestId={undefined} />);
    expect(screen.getByText(/No timed attempt yet/)).toBeTruthy();
  });
});
