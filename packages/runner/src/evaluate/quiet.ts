// Waiting for the machine to quiet before a ranked result is timed again (issue 20: "timed again later, bounded,
// with the wait shown"). A result timed while other work kept the machine busy is timed a second time; timed at
// once, the neighbour is most often still there. So the driver first watches /proc/stat in one-second windows and
// goes on at the first window in which the machine's busy cores are under the judge's noisy threshold, or when
// the bound is spent; the wait is published with the figure (load.retime_wait_ms).
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { sleep } from '@kernelforge/sdk/internal';
import { NOISY_OUTSIDE_CORES } from './judge.js';

/** Busy and total cpu time of the whole machine, in clock ticks (user, nice, system, irq, softirq, steal). */
export function procStat(): { busy: number; total: number } | null {
  try {
    const v = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    const busy = (v[0] ?? 0) + (v[1] ?? 0) + (v[2] ?? 0) + (v[5] ?? 0) + (v[6] ?? 0) + (v[7] ?? 0);
    return { busy, total: v.reduce((s, x) => s + (Number.isFinite(x) ? x : 0), 0) - (v[8] ?? 0) - (v[9] ?? 0) };
  } catch {
    return null;
  }
}

/** How many cores were busy over the window just ended, from two /proc/stat readings; NaN when the counters did not
    move (no reading: never taken for quiet). */
function busyCores(a: { busy: number; total: number }, b: { busy: number; total: number }, cores: number): number {
  const total = b.total - a.total;
  return total > 0 ? ((b.busy - a.busy) / total) * cores : Number.NaN;
}

/** Busy cores from other work under which a machine counts as quiet: the judge's noisy threshold (NOISY_OUTSIDE_CORES,
    or a quarter of the cores). The peaks are measured under the same rule (devices/quiet-peaks.ts). */
export function quietThreshold(cores: number): number {
  return Math.max(NOISY_OUTSIDE_CORES, cores / 4);
}

export interface QuietWait {
  /** How long the wait took (ms). */
  waitedMs: number;
  /** Whether the machine quieted (false: the bound was spent, or /proc/stat could not be read). */
  quiet: boolean;
  /** The busy cores of the last window read (NaN: none). */
  lastBusyCores: number;
}

/**
 * Waits, at most `maxMs`, until a one-second window in which the machine kept fewer cores busy than the judge's
 * noisy threshold (NOISY_OUTSIDE_CORES, or a quarter of the cores). Nothing of this job runs meanwhile, so what
 * is busy is other work. An abort ends the wait at once. `onWindow` hears each window's busy cores.
 */
export async function waitForQuiet(
  maxMs: number,
  signal?: AbortSignal,
  windowMs = 1000,
  /** Told each window's busy cores as it ends (the wait's progress report, waits.ts). */
  onWindow?: (busyCores: number) => void,
): Promise<QuietWait> {
  const started = performance.now();
  const cores = availableParallelism();
  const threshold = quietThreshold(cores);
  let before = procStat();
  let last = Number.NaN;
  if (!before || maxMs <= 0) return { waitedMs: 0, quiet: false, lastBusyCores: last };
  while (performance.now() - started < maxMs && !signal?.aborted) {
    await sleep(Math.min(windowMs, Math.max(0, maxMs - (performance.now() - started))), signal).catch(() => {});
    const after = procStat();
    if (!after) break;
    const busy = busyCores(before, after, cores);
    if (Number.isFinite(busy)) {
      last = busy;
      before = after;
      onWindow?.(busy);
    }
    if (busy < threshold) return { waitedMs: performance.now() - started, quiet: true, lastBusyCores: last };
  }
  return { waitedMs: performance.now() - started, quiet: false, lastBusyCores: last };
}
