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

/** What the gap means for a case whose events' median time is `insideMs`. */
export function trustVerdict(name: string, insideMs: number, g: TrustGap | null): TrustVerdict {
  const slack = Math.max(TRUST_SLACK_MIN_MS, TRUST_SLACK_SHARE * insideMs);
  if (!g || g.excessMs <= slack) return { kind: 'clean' };
  const what = `case ${name}: the trusted end of the call (the harness's probe of the finished outputs) came ${(g.excessMs * 1000).toFixed(1)} us later after the candidate's events than after the baseline's (gaps ${(g.candidateGapMs * 1000).toFixed(1)} and ${(g.baselineGapMs * 1000).toFixed(1)} us)`;
  if (g.excessMs > Math.max(TRUST_REJECT_MIN_MS, TRUST_REJECT_SHARE * insideMs))
    return {
      kind: 'rejected',
      reason: `${what}, against ${(insideMs * 1000).toFixed(1)} us inside the events: work the events did not time (a rewritten synchronize or event, or work left on another stream)`,
    };
  // Beyond doubt and beyond the slack: the whole difference of the medians goes back on.
  const add = Math.max(g.excessMs, g.candidateGapMs - g.baselineGapMs);
  return { kind: 'corrected', addMs: add, reason: `${what}: ${(add * 1000).toFixed(1)} us added to its time` };
}
