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
