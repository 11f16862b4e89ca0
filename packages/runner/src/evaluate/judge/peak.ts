// The recheck against the device's peaks, for every backend: a result the judge called impossible against a cpu's
// measured peaks (implausible), or above a peak measured under load, or near one, gets the peaks measured again on
// a quiet machine, and the run is judged again against them. The judge's roofline rules (judge.ts) decide the
// verdict each time; this says when the peaks are measured again and how hard. Only a cpu's measured peaks are ever
// measured again (devices/remeasure.ts): a cuda device's are a table's, and a result there is judged once.
import type { Device, EvaluationState } from '@kernelforge/sdk';
import { refreshCpuPeaks } from '../../devices/remeasure.js';
import { UNBELIEVED_PEAK } from '../judge.js';

/** A result at this fraction of a measured peak gets the peaks measured again (at most every 10 minutes). */
export const RECHECK_FRACTION = 0.75;

export type PeakRecheck = 'now' | 'unbelieved' | 'throttled';

/**
 * Whether a result calls for measuring the cpu's peaks again: `now` when it is above the peak (implausible),
 * `unbelieved` when it is above a peak measured under load (flagged, UNBELIEVED_PEAK), `throttled` when it is flagged
 * for review for nearing it or reaches RECHECK_FRACTION of it, null otherwise.
 */
export function peakRecheck(state: Pick<EvaluationState, 'verdict' | 'benchmarking_result'>): PeakRecheck | null {
  if (state.verdict === 'implausible') return 'now';
  const r = state.benchmarking_result;
  if (r?.review_reasons?.some((x) => x.includes(UNBELIEVED_PEAK))) return 'unbelieved';
  // Near a peak (flagged) or within reach of it (3/4): a peak measured on a busy machine may be the limit here.
  if (r?.review_reasons?.some((x) => /of peak/.test(x))) return 'throttled';
  return (r?.fraction_of_peak ?? 0) >= RECHECK_FRACTION ? 'throttled' : null;
}

/**
 * How hard each recheck measures. Each run waits for a quiet second first (at most 5 s) and runs again while other
 * work disturbs it: three runs before calling a result impossible; two, at most once a minute, before leaving one
 * flagged above a peak measured under load (so a machine that stays busy does not cost every evaluation the wait);
 * one, at most every 10 minutes, for a result merely near the peak (so a runner started on a busy machine does not
 * flag every good kernel, and a truly fast kernel does not pay for a re-measurement on every evaluation).
 */
export const RECHECK_MEASURE: Record<PeakRecheck, { tries: number; minIntervalMs?: number }> = {
  now: { tries: 3 },
  unbelieved: { tries: 2, minIntervalMs: 60_000 },
  throttled: { tries: 1, minIntervalMs: 600_000 },
};

/** The longest wait for a quiet second before each run of a recheck (ms); EvaluateOptions.peakRecheckWaitMs lowers it
    (tests). */
export const RECHECK_WAIT_MS = 5000;

/** The peaks measured again: true when they changed so that the run is to be judged again. */
export type RefreshPeaks = (
  device: Device,
  opts: { minIntervalMs?: number; tries?: number; waitMs?: number; signal?: AbortSignal | undefined },
) => Promise<boolean>;

/**
 * Judges a run (`judge`, reading `device`'s peaks), and again once the peaks are measured anew when the first
 * verdict calls for it (peakRecheck). Used by both backends' parse (c-abi.ts, torch.ts).
 */
export async function judgeWithPeakRecheck(
  device: Device,
  signal: AbortSignal | undefined,
  judge: () => EvaluationState,
  refresh: RefreshPeaks = refreshCpuPeaks,
  waitMs: number = RECHECK_WAIT_MS,
): Promise<EvaluationState> {
  const state = judge();
  const recheck = peakRecheck(state);
  if (!recheck) return state;
  return (await refresh(device, { waitMs, signal, ...RECHECK_MEASURE[recheck] })) ? judge() : state;
}
