// Small rules of the spec that every face applies the same way.
import { type FigureAttempt, rankingTime } from './attempt-figure.js';
import type { PeakMeasurement } from './schemas/device.js';
import type { TimingLoad } from './schemas/evaluation.js';
import type { EvaluationProgress, EvaluationWait } from './schemas/runner.js';

/** Spec section 9: a user created within 300 seconds of login counts as new. */
export const NEW_USER_WINDOW_SECONDS = 300;

/**
 * Spec section 2: the completed attempt with the lowest `evaluation_state.benchmarking_result.optimized_time`;
 * an attempt with no time counts as the largest; if none is completed, the first attempt. The time is rankingTime's:
 * a verdict other than `accepted` carries none, so such an attempt is never the best while an accepted one exists.
 */
export function bestAttempt<A extends FigureAttempt>(session: { generation_attempts: readonly A[] }): A | undefined {
  const attempts = session.generation_attempts;
  let best: A | undefined;
  let bestTime = Number.POSITIVE_INFINITY;
  for (const attempt of attempts) {
    if (attempt.status !== 'completed') continue;
    const value = rankingTime(attempt) ?? Number.POSITIVE_INFINITY;
    // Strictly lower wins, so among equals (or all without a time) the earliest completed attempt stays.
    if (best === undefined || value < bestTime) {
      best = attempt;
      bestTime = value;
    }
  }
  return best ?? attempts[0];
}

/**
 * Whether a device's peaks were measured on a quiet machine, in words (the web's device picker and `kforge devices`
 * say it); undefined for records that do not say (older runners, table peaks).
 */
export function peakQuietness(m: PeakMeasurement | undefined): string | undefined {
  if (m?.quiet === undefined) return undefined;
  const busy =
    m.outside_busy_cores !== undefined ? ` (other work kept ${m.outside_busy_cores.toFixed(1)} cores busy)` : '';
  const tries = m.tries && m.tries > 1 ? ` after ${m.tries} runs` : '';
  return m.quiet
    ? `Measured on a quiet machine${busy}${tries}.`
    : `Measured under load${busy}${tries}: a result above these peaks is flagged for review, not called implausible, until they are measured on a quiet machine.`;
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

/**
 * The conditions a figure was timed under, in one sentence (the web's evaluation report and `kforge attempts show`
 * print it): the cores, the outside load, the share of time each side waited for a cpu, pairs retaken for waiting
 * and how many times the phase was timed. A neighbour on the machine shows here, as a recorded condition.
 */
export function timingConditions(load: TimingLoad | undefined | null): string | undefined {
  if (!load) return undefined;
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const busy = load.outside_cores >= 0.05;
  const cores =
    load.budget_cores !== undefined && load.budget_cores < load.cores
      ? `${load.budget_cores} of ${load.cores} cores (cpu ${load.budget_cpus ?? '?'}, free when the evaluation began; the baseline on the same)`
      : `${load.cores} ${load.cores === 1 ? 'core' : 'cores'}`;
  const parts = [
    `Timed on ${cores} ${busy ? `beside other work (${load.outside_cores.toFixed(2)} cores busy)` : 'with the machine otherwise quiet'}`,
  ];
  if (load.wait_share !== undefined)
    parts.push(
      `waiting for a cpu ${pct(load.wait_share)} of its time${load.baseline_wait_share !== undefined ? `, the baseline ${pct(load.baseline_wait_share)}` : ''}`,
    );
  if (load.retaken_pairs)
    parts.push(`${load.retaken_pairs} ${load.retaken_pairs === 1 ? 'pair' : 'pairs'} taken again after waiting`);
  if (load.budget_resets)
    parts.push(
      `its threads found on cpus outside the budget ${load.budget_resets} ${load.budget_resets === 1 ? 'time' : 'times'} (set back)`,
    );
  if (load.waited_pairs_kept)
    parts.push(
      load.retaken_pairs
        ? `${load.waited_pairs_kept} kept after waiting (the machine stayed busy)`
        : `${load.waited_pairs_kept} ${load.waited_pairs_kept === 1 ? 'pair' : 'pairs'} waited for a cpu (kept: no pair is dropped for waiting)`,
    );
  if (load.run_speedups && load.run_speedups.length > 1)
    parts.push(
      `timed twice by fresh processes${load.retime_wait_ms !== undefined ? `, the second after waiting ${(load.retime_wait_ms / 1000).toFixed(1)} s for the machine to quiet` : ''} (${load.run_speedups.map((s) => `${s.toFixed(2)}x`).join(' and ')}: the lower is shown, the interval holds both)`,
    );
  else if ((load.timed_runs ?? 1) > 1)
    parts.push(
      `timed ${load.timed_runs} times${load.retime_wait_ms !== undefined ? ` (the last after waiting ${(load.retime_wait_ms / 1000).toFixed(1)} s for the machine to quiet)` : ''}`,
    );
  return `${parts.join('; ')}.`;
}

/** A wait's length in words: '45 s', '2 min 05 s'. */
export function waitSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const m = Math.floor(s / 60);
  return m > 0 ? `${m} min ${String(s % 60).padStart(2, '0')} s` : `${s} s`;
}

/** How long a wait has lasted and may last ('waiting 45 s, at most 2 min 00 s'), or '' when it has no start. */
function waitedText(wait: EvaluationWait | undefined, now: number, anyway: string): string {
  if (!wait) return '';
  const since = Date.parse(wait.since);
  const waited = Number.isFinite(since) ? ` · waiting ${waitSeconds((now - since) / 1000)}, ` : ' · ';
  return `${waited}at most ${waitSeconds(wait.max_seconds)}${anyway}`;
}

/**
 * A wait inside an evaluation in words (issue 35 item 3): for the device's timing lock, what holds it and for about
 * how long; for quiet, the busy cores seen and the threshold; each with how long it has waited and may wait.
 */
export function evaluationWaitText(p: EvaluationProgress, now: number = Date.now()): string {
  const w = p.wait;
  if (p.stage === 'lock') {
    let holder = 'another evaluation is being timed';
    if (w?.holder) {
      const until = w.holder_until ? Date.parse(w.holder_until) : Number.NaN;
      const left = (until - now) / 1000;
      holder = `${w.holder}${Number.isFinite(left) ? (left >= 1 ? `, about ${waitSeconds(left)} more` : ', about to finish') : ''}`;
    }
    return `Waiting for the timing lock (one evaluation is timed at a time on this machine): ${holder}${waitedText(w, now, ', then it is timed anyway')}`;
  }
  const load =
    w?.busy_cores !== undefined && w.cores !== undefined
      ? `other work keeps ${w.busy_cores.toFixed(1)} of ${w.cores} cores busy${w.quiet_below !== undefined ? ` (quiet is under ${w.quiet_below.toFixed(1)})` : ''}`
      : 'reading how busy it is';
  return `Waiting for the machine to quiet before timing again: ${load}${waitedText(w, now, ', then it is timed anyway and flagged')}`;
}

/**
 * An evaluation's progress in one line, as the web's progress box and `kforge sessions watch` say it: 'Compiling',
 * 'Checking case 12 of 30', 'Waiting for the timing lock (...)', 'Timing case 1 of 2 · 37 samples'. `now`: the
 * clock a wait's length is counted on.
 */
export function evaluationProgressText(p: EvaluationProgress, now: number = Date.now()): string {
  if (p.stage === 'compiling') return 'Compiling';
  if (p.stage === 'lock' || p.stage === 'quiet') return evaluationWaitText(p, now);
  if (p.stage === 'correctness') return `Checking case ${p.case_index} of ${p.case_count}`;
  return `Timing case ${p.case_index} of ${p.case_count} · ${p.samples} sample${p.samples === 1 ? '' : 's'}`;
}
