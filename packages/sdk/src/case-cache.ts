// What a benchmark case's data was against the last-level cache of the machine that timed it, in words: the same
// sentence on the web's report, the CLI and the LLM's prompt.
import type { BenchmarkCase, CaseCache } from './schemas/index.js';

/** Bytes as people read cache sizes: `35.8 MiB`, `512 KiB`, `96 B`. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
  if (bytes >= 2 ** 20) return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(0)} KiB`;
  return `${Math.round(bytes)} B`;
}

/**
 * One sentence on a case's data and the last-level cache, or undefined when the case says nothing about it (no
 * `cache`) or its data is well outside the cache and came from memory (the ordinary case, nothing to point out).
 */
export function cacheNote(c: Pick<BenchmarkCase, 'cache'> & { name?: string }): string | undefined {
  const k: CaseCache | undefined = c.cache;
  if (!k) return undefined;
  const data = `its data (${formatBytes(k.bytes)})`;
  const llc = `the ${formatBytes(k.llc_bytes)} last-level cache`;
  if (k.fits_llc && k.from_memory)
    return `${data} fits in ${llc}; the caches were flushed before each timed call, so it ran from memory`;
  if (k.fits_llc)
    return `${data} fits in ${llc} and nothing flushed it between calls: cache-resident, so its GB/s is not held to the memory bandwidth peak`;
  if (!k.from_memory)
    return `${data} is under twice ${llc} and nothing flushed it between calls: partly cache-resident, so its GB/s is not held to the memory bandwidth peak`;
  return undefined;
}
