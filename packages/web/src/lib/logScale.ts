// A log axis for ratios such as speedups: ticks at nice values that span the data and 1, and the mapping to pixels.

/** Tick values on a log axis from at most `lo` to at least `hi`, always holding 1: powers of 2 (0.25, 0.5, 1, 2,
 * 4, …) while at most `maxTicks` of them are needed, else powers of 10 (0.01, 0.1, 1, 10, …). */
export function logTicks(lo: number, hi: number, maxTicks = 8): number[] {
  const low = Number.isFinite(lo) && lo > 0 ? Math.min(lo, 1) : 1;
  const high = Number.isFinite(hi) && hi > 0 ? Math.max(hi, 1) : 1;
  // Data at 1 alone still gets a tick either side, so the baseline sits mid-axis.
  if (low === 1 && high === 1) return [0.5, 1, 2];
  for (const base of [2, 10]) {
    const first = Math.floor(Math.log(low) / Math.log(base) + 1e-9);
    const last = Math.ceil(Math.log(high) / Math.log(base) - 1e-9);
    if (last - first + 1 <= maxTicks || base === 10) {
      const ticks: number[] = [];
      for (let k = first; k <= last; k++) ticks.push(Number((base ** k).toPrecision(12)));
      return ticks;
    }
  }
  return [1];
}

/** A tick's text: `0.25×`, `1×`, `16×`. */
export function formatRatioTick(value: number): string {
  return `${Number(value.toPrecision(3))}×`;
}

/** Maps a positive value in [min, max] to a pixel from `bottom` (at min) up to `top` (at max), logarithmically. */
export function logScale(min: number, max: number, top: number, bottom: number): (value: number) => number {
  const span = Math.log(max) - Math.log(min) || 1;
  return (value) => top + ((Math.log(max) - Math.log(Math.max(value, Number.MIN_VALUE))) / span) * (bottom - top);
}

/** Tick values (ms) on a log axis of times, at 1-2-5 steps from at most `lo` to at least `hi`; only powers of 10 when
 * more than `maxTicks` would be needed. Equal times get a step either side. */
export function timeTicks(lo: number, hi: number, maxTicks = 8): number[] {
  if (!(lo > 0) || !(hi > 0) || !Number.isFinite(lo) || !Number.isFinite(hi)) return [1];
  for (const steps of [[1, 2, 5], [1]]) {
    const all: number[] = [];
    for (let k = Math.floor(Math.log10(lo)) - 1; k <= Math.ceil(Math.log10(hi)) + 1; k++)
      for (const s of steps) all.push(Number((s * 10 ** k).toPrecision(12)));
    const first = Math.max(
      0,
      all.findLastIndex((v) => v <= lo * (1 + 1e-9)),
    );
    let last = all.findIndex((v) => v >= hi * (1 - 1e-9));
    if (last < 0) last = all.length - 1;
    if (last === first) last = Math.min(all.length - 1, last + 1);
    const ticks = all.slice(first, last + 1);
    if (ticks.length <= maxTicks || steps.length === 1) return ticks;
  }
  return [1];
}

/** A time tick's text: `500 µs`, `2 ms`, `1.5 s`. */
export function formatTimeTick(ms: number): string {
  if (ms >= 1000) return `${Number((ms / 1000).toPrecision(3))} s`;
  if (ms < 1) return `${Number((ms * 1000).toPrecision(3))} µs`;
  return `${Number(ms.toPrecision(3))} ms`;
}
