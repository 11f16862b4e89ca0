// cuda: the trusted bound on a time measured by events in the candidate's process (issue 32, docs/evaluation.md "cuda:
// the trusted end of a call"). The ranked figure is the stub's events around the call, which code in the candidate's
// process can rewrite; the harness's own clock runs from sending RUN to its probe's verified answer (a keyed checksum of
// the finished outputs, key drawn after the reply), which it cannot. On honest code the stretch outside the events (the
// round trip, the probe) is the same for the candidate and the baseline, whose stubs are one source; a candidate whose
// events leave out part of its work shows a longer one. That excess, as far as it is beyond doubt (the lower end of its
// 95% interval), is added back to its time; a large one rejects it.
import { median, medianInterval } from './stats.js';

/** The excess outside the events is added back once beyond doubt; past this share of the events' time, and past
    TRUST_REJECT_MIN_MS, the events were not the call's: rejected. */
export const TRUST_REJECT_SHARE = 0.25;
export const TRUST_REJECT_MIN_MS = 0.005;
/** What two processes of one stub may differ by in their stretch outside the events without meaning anything (the
    sandboxes, where each landed in memory): an excess counts only beyond it, so identical code is never corrected; a
    candidate that hides less than this (plus the intervals' width) gains at most that much. Beyond it, the whole
    difference of the two gaps' medians is added back. */
export const TRUST_SLACK_SHARE = 0.03;
export const TRUST_SLACK_MIN_MS = 0.001;

export interface TrustSeries {
  /** The candidate's event times and its outside times (sending RUN to the probe's answer), per clean sample. */
  inside: readonly number[];
  outside: readonly number[];
  /** The baseline's, per sample. */
  baselineInside: readonly number[];
  baselineOutside: readonly number[];
}

export interface TrustGap {
  /** Medians of outside less inside, the candidate's and the baseline's (ms). */
  candidateGapMs: number;
  baselineGapMs: number;
  /** The excess beyond doubt: the candidate's gap interval's low end less the baseline's high end, at least 0. */
  excessMs: number;
}

/** Outside less inside, sample by sample (the series are the same length: one harness loop pushes both). */
function gaps(inside: readonly number[], outside: readonly number[]): number[] {
  const n = Math.min(inside.length, outside.length);
  return Array.from({ length: n }, (_, i) => (outside[i] as number) - (inside[i] as number));
}

/** The gap the candidate's events leave beyond the baseline's; null without both sides' outside times (6 each). */
export function trustGap(s: TrustSeries): TrustGap | null {
  const c = gaps(s.inside, s.outside);
  const b = gaps(s.baselineInside, s.baselineOutside);
  const ci = medianInterval(c);
  const bi = medianInterval(b);
  if (!ci || !bi) return null;
  return { candidateGapMs: median(c), baselineGapMs: median(b), excessMs: Math.max(0, ci[0] - bi[1]) };
}

export type TrustVerdict =
  | { kind: 'clean' }
  | { kind: 'corrected'; addMs: number; reason: string }
  | { kind: 'rejected'; reason: string };

/** How a verdict names what was compared: the probe's end of the call (cuda) or the staged steps (torch). */
interface TrustWords {
  what: (g: TrustGap) => string;
  inside: string;
  rejected: string;
}

const PROBE_WORDS: TrustWords = {
  what: (g) =>
    `the trusted end of the call (the harness's probe of the finished outputs) came ${(g.excessMs * 1000).toFixed(1)} us later after the candidate's events than after the baseline's (gaps ${(g.candidateGapMs * 1000).toFixed(1)} and ${(g.baselineGapMs * 1000).toFixed(1)} us)`,
  inside: 'inside the events',
  rejected: 'work the events did not time (a rewritten synchronize or event, or work left on another stream)',
};

/** The torch backend's staged protocol (a cuda device): `prepare` (the inputs to the device) and `fetch` (the outputs
    back) are untimed round trips in the worker's process, the same code on both sides, moving the same bytes; a
    candidate that moves its work into them (a result computed when it is fetched: torch-cheats/lazy_fetch.py) shows
    longer ones than the eager baseline's. Held to the baseline's by the same rule as the probe's gap. */
const STAGED_WORDS: TrustWords = {
  what: (g) =>
    `the untimed steps around each call (inputs copied to the device, outputs fetched back) cost the candidate ${(g.excessMs * 1000).toFixed(1)} us more than the baseline (wall time on a GPU, least ${(g.candidateGapMs * 1000).toFixed(1)} and ${(g.baselineGapMs * 1000).toFixed(1)} us)`,
  inside: 'in the timed call',
  rejected: 'work moved out of the timed call (done as the inputs were copied in or as the outputs were fetched)',
};

/** The same on a cpu, where the steps are read as process cpu and compared call by call (stagedCpuGap). */
const STAGED_CPU_WORDS: TrustWords = {
  ...STAGED_WORDS,
  what: (g) =>
    `the untimed steps around each call (inputs copied in, outputs fetched back) cost the candidate ${(g.excessMs * 1000).toFixed(1)} us more than the baseline (process cpu, the median of the calls' differences; medians ${(g.candidateGapMs * 1000).toFixed(1)} and ${(g.baselineGapMs * 1000).toFixed(1)} us)`,
};

/** The staged steps are copies of the whole data (milliseconds on a GPU, against calls of microseconds), and two
    processes' copies of the same bytes differ by a few percent (where each landed in memory): an excess counts only
    beyond this share of the baseline's steps too (and beyond the baseline's own spread), and rejects only past twice
    the slack. */
export const STAGED_SLACK_SHARE = 0.05;
/** On a cpu (the staged protocol run there for tests, `--staged`) the steps are read as process cpu, and there two
    processes' copies of the same 8 MiB differ far more, and for the whole run: each process's buffers land in other
    physical memory, and a memory-bound copy's cpu time is its stalls. Measured on a 2-core Zen 4 VM, the renamed
    reference and lazy_fetch.py's honest twin against the eager baseline: -11% to +34% at their fastest (four runs of
    twelve samples a side, quiet and under a copy loop on the other core; every sample of a run on the same side of
    the baseline's), while the lazy cheat's fetch cost +99% to +118%. So there the slack is half the baseline's
    steps, and a rejection needs 1.4 times it. */
export const STAGED_CPU_SLACK_SHARE = 0.5;
export const STAGED_CPU_REJECT_FACTOR = 1.4;
/** Fewer samples a side than this: an excess is added to the time (flagged), never a rejection. */
export const STAGED_REJECT_MIN_SAMPLES = 3;

/** Which clock the staged steps were read on: wall time (a GPU: its host is not the contended resource) or process
    cpu (the cpu, where load adds wall time but not cpu). */
export type StagedClock = 'wall' | 'cpu';

/** The candidate's untimed steps against the baseline's, by their fastest: load, a neighbour or the machine only ever
    add time to a copy, so each side's fastest round trip is its own cost with the least noise (on the loaded 2-core VM
    the baseline's 2 ms steps read up to 69 ms, which left the medians' intervals overlapping while the candidate
    computed in every fetch), and a candidate cannot make its own fastest lower than the work it moved there. */
export function stagedGap(candidate: readonly number[], baseline: readonly number[]): TrustGap | null {
  if (candidate.length === 0 || baseline.length === 0) return null;
  const c = Math.min(...candidate);
  const b = Math.min(...baseline);
  return { candidateGapMs: c, baselineGapMs: b, excessMs: Math.max(0, c - b) };
}

/** On a cpu: the median of the differences call by call (the harness keeps the two sides' steps in pairs, one pair
    per round, the two calls of a round back to back). A memory-bound copy's process cpu rises with the load on the
    memory the other core makes, which comes and goes within a second: the fastest of each side fell in different
    moments, and under a busy CI lane and a copy loop beside it the baseline's median stood at twice its fastest, so
    the fastest-against-fastest rule's allowance for that spread let lazy_fetch.py through. A call's difference from
    its neighbour's cancels the load both saw; the median ignores the rounds where it did not. A candidate cannot make
    the median lower than the work it moved there: time it adds to its own steps only raises it. */
export function stagedCpuGap(candidate: readonly number[], baseline: readonly number[]): TrustGap | null {
  const n = Math.min(candidate.length, baseline.length);
  if (n === 0) return null;
  const d = Array.from({ length: n }, (_, i) => (candidate[i] as number) - (baseline[i] as number));
  return {
    candidateGapMs: median(candidate.slice(0, n)),
    baselineGapMs: median(baseline.slice(0, n)),
    excessMs: Math.max(0, median(d)),
  };
}

/** What the staged steps' excess means for a case whose timed calls' median is `callMs` (the torch backend). */
export function stagedTrustVerdict(
  name: string,
  callMs: number,
  candidate: readonly number[],
  baseline: readonly number[],
  clock: StagedClock = 'wall',
): TrustVerdict {
  const cpu = clock === 'cpu';
  const g = cpu ? stagedCpuGap(candidate, baseline) : stagedGap(candidate, baseline);
  if (!g) return { kind: 'clean' };
  // Wall (fastest against fastest): the baseline's own spread (its median over its fastest) is as much as load moved
  // the same copies: on a loaded machine the fastest of a dozen is not yet the floor, and the candidate's may sit that
  // far above the baseline's. The cpu's paired median has no such allowance: the pairing takes the load out.
  const spread = cpu ? 0 : median(baseline) - g.baselineGapMs;
  const share = cpu ? STAGED_CPU_SLACK_SHARE : STAGED_SLACK_SHARE;
  // The share is of the baseline's own cost: its fastest on a cpu (its median there holds the load too).
  const scale = cpu ? Math.min(...baseline.slice(0, candidate.length)) : g.baselineGapMs;
  const slack = Math.max(TRUST_SLACK_MIN_MS, TRUST_SLACK_SHARE * callMs, share * scale, spread);
  if (g.excessMs <= slack) return { kind: 'clean' };
  const words = cpu ? STAGED_CPU_WORDS : STAGED_WORDS;
  const what = `case ${name}: ${words.what(g)}`;
  const enough = Math.min(candidate.length, baseline.length) >= STAGED_REJECT_MIN_SAMPLES;
  const factor = cpu ? STAGED_CPU_REJECT_FACTOR : 2;
  if (enough && g.excessMs > Math.max(factor * slack, TRUST_REJECT_MIN_MS, TRUST_REJECT_SHARE * callMs))
    return {
      kind: 'rejected',
      reason: `${what}, against ${(callMs * 1000).toFixed(1)} us ${words.inside}: ${words.rejected}`,
    };
  return {
    kind: 'corrected',
    addMs: g.excessMs,
    reason: `${what}: ${(g.excessMs * 1000).toFixed(1)} us added to its time`,
  };
}

/** What the gap means for a case whose events' median time is `insideMs`. */
export function trustVerdict(name: string, insideMs: number, g: TrustGap | null, words = PROBE_WORDS): TrustVerdict {
  const slack = Math.max(TRUST_SLACK_MIN_MS, TRUST_SLACK_SHARE * insideMs);
  if (!g || g.excessMs <= slack) return { kind: 'clean' };
  const what = `case ${name}: ${words.what(g)}`;
  if (g.excessMs > Math.max(TRUST_REJECT_MIN_MS, TRUST_REJECT_SHARE * insideMs))
    return {
      kind: 'rejected',
      reason: `${what}, against ${(insideMs * 1000).toFixed(1)} us ${words.inside}: ${words.rejected}`,
    };
  // Beyond doubt and beyond the slack: the whole difference of the medians goes back on.
  const add = Math.max(g.excessMs, g.candidateGapMs - g.baselineGapMs);
  return { kind: 'corrected', addMs: add, reason: `${what}: ${(add * 1000).toFixed(1)} us added to its time` };
}
