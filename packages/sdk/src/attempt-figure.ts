// One figure per attempt (issue 35): the time it is ranked by, with its 95% interval, and its speedup over the
// baseline timed beside it. An attempt whose verdict is not `accepted` has no time to rank by, and says why. The
// session's best, its chart and table, the attempt page, the tuner's note and the CLI read attempts through here.

/** A 95% interval [low, high]. */
export type FigureInterval = readonly [number, number];

/** What this module reads of an attempt (a GenerationAttempt, or the server's row of one). */
export interface FigureAttempt {
  status: string;
  evaluation_state?:
    | {
        verdict?: string | null | undefined;
        benchmarking_result?:
          | {
              optimized_time?: number | null | undefined;
              optimized_time_interval?: FigureInterval | undefined;
              speedup?: number | null | undefined;
              speedup_interval?: FigureInterval | undefined;
              baseline_time?: number | null | undefined;
            }
          | null
          | undefined;
      }
    | null
    | undefined;
}

/** An attempt's figure: what every face shows for it, and the time it is ranked by. */
export interface AttemptFigure {
  time_ms: number;
  time_interval?: FigureInterval | undefined;
  /** Over the baseline timed beside this attempt (each evaluation times its own). */
  speedup?: number | undefined;
  speedup_interval?: FigureInterval | undefined;
  /** The baseline's time in that same evaluation. */
  baseline_ms?: number | undefined;
}

const positive = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;

/**
 * The time an attempt is ranked by (spec section 2's `optimized_time`), or undefined when it has none: not completed,
 * or a verdict other than `accepted` (an implausible or rejected attempt's figures are kept in its report, but they
 * count for nothing: such an attempt is never the best while an accepted one exists, and is never submitted).
 */
export function rankingTime(attempt: FigureAttempt): number | undefined {
  if (attempt.status !== 'completed') return undefined;
  const state = attempt.evaluation_state;
  if (state?.verdict != null && state.verdict !== 'accepted') return undefined;
  const time = state?.benchmarking_result?.optimized_time;
  return positive(time) ? time : undefined;
}

/** The attempt's figure when it is ranked (rankingTime), else undefined. */
export function attemptFigure(attempt: FigureAttempt): AttemptFigure | undefined {
  const time = rankingTime(attempt);
  if (time === undefined) return undefined;
  const b = attempt.evaluation_state?.benchmarking_result;
  return {
    time_ms: time,
    time_interval: b?.optimized_time_interval,
    speedup: positive(b?.speedup) ? b.speedup : undefined,
    speedup_interval: b?.speedup_interval,
    baseline_ms: positive(b?.baseline_time) ? b.baseline_time : undefined,
  };
}

/**
 * Why a finished attempt has no figure to rank by, in words; undefined when it has one or is not finished. Shown
 * wherever its time would be (the table, the attempt page, beside a disabled Submit button).
 */
export function unrankedReason(attempt: FigureAttempt): string | undefined {
  if (attempt.status !== 'completed' || rankingTime(attempt) !== undefined) return undefined;
  const verdict = attempt.evaluation_state?.verdict;
  if (verdict != null && verdict !== 'accepted')
    return `Not ranked: its verdict is ${verdict.replace(/_/g, ' ')}, so its time counts for nothing (only an accepted attempt can be the best or be submitted).`;
  return 'Not ranked: it has no time.';
}

/** A time as every face writes it: `0.950 ms`, `12.3 ms`, `1.20 s`, `850.0 µs`. */
export function formatFigureMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 0.001) return `${(ms * 1e6).toFixed(0)} ns`;
  if (ms < 1) return `${(ms * 1000).toFixed(1)} µs`;
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 3 : 1)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** A time's spread from its 95% interval: `±1.2%` (the half-width over the time); undefined without an interval. */
export function spreadText(
  ms: number | null | undefined,
  interval: FigureInterval | null | undefined,
): string | undefined {
  if (!interval || !positive(ms)) return undefined;
  const [lo, hi] = interval;
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || hi < lo) return undefined;
  const pct = ((hi - lo) / 2 / ms) * 100;
  return `±${pct.toFixed(pct < 0.1 ? 2 : pct < 10 ? 1 : 0)}%`;
}

/** `1.58x` */
const times = (x: number) => `${x.toFixed(x >= 100 ? 0 : 2)}x`;

/**
 * The figure in one line, as the tuner's note and the CLI write it and the web shows it: `7.060 ms ±40% (1.58x the
 * baseline timed beside it, 11.155 ms)`.
 */
export function figureText(f: AttemptFigure): string {
  const spread = spreadText(f.time_ms, f.time_interval);
  const base = f.baseline_ms !== undefined ? `, ${formatFigureMs(f.baseline_ms)}` : '';
  const speed = f.speedup !== undefined ? ` (${times(f.speedup)} the baseline timed beside it${base})` : '';
  return `${formatFigureMs(f.time_ms)}${spread ? ` ${spread}` : ''}${speed}`;
}

/**
 * Why a ranked attempt with a higher speedup than the best is not the best, when that happens: each speedup is over
 * the baseline timed beside that attempt, and the baseline's own time moves between evaluations, while the best is the
 * lowest time. One sentence per such attempt (oldest first); none when the orders agree.
 */
export function speedupDisagreements<A extends FigureAttempt & { attempt_number: number }>(
  attempts: readonly A[],
  best: A | undefined,
): string[] {
  const b = best ? attemptFigure(best) : undefined;
  if (!best || !b?.speedup) return [];
  const out: string[] = [];
  for (const a of [...attempts].sort((x, y) => x.attempt_number - y.attempt_number)) {
    const f = attemptFigure(a);
    if (
      a.attempt_number === best.attempt_number ||
      !f?.speedup ||
      times(f.speedup) === times(b.speedup) ||
      f.speedup < b.speedup
    )
      continue;
    const baselines =
      f.baseline_ms !== undefined && b.baseline_ms !== undefined
        ? `, and #${a.attempt_number}'s ran ${f.baseline_ms > b.baseline_ms ? 'slower' : 'faster'} (${formatFigureMs(f.baseline_ms)} against ${formatFigureMs(b.baseline_ms)})`
        : '';
    out.push(
      `Attempt #${a.attempt_number} shows a higher speedup (${times(f.speedup)}) than the best, #${best.attempt_number} (${times(b.speedup)}), but a longer time (${formatFigureMs(f.time_ms)} against ${formatFigureMs(b.time_ms)}): each speedup is over the baseline timed beside that attempt${baselines}. The best is the lowest time.`,
    );
  }
  return out;
}
