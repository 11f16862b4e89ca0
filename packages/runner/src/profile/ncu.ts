// The trusted Nsight Compute run of a cuda candidate: one extra run of its kernels under `ncu`, outside the timed run,
// with a fixed small metric set, read from ncu's CSV. NOT YET RUN ON A GPU: this machine has no GPU and no ncu; the
// parser is tested against a sample written from ncu's documented CSV layout (docs/evaluation.md). Evaluations run
// ncu inside the worker's sandbox (profile/ncu-run.ts); runNcuProfile runs a trusted driver (bench/cuda-facts.mjs).
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { HardwareCounters } from '@kernelforge/sdk';
import type { JobCgroup } from '../sandbox/cgroup.js';
import { runCommand } from '../sandbox/spawn.js';

/** What the facts call each metric, and its ncu name (Nsight Compute's metrics reference, SpeedOfLight/Occupancy). */
export const NCU_METRICS = {
  dram_throughput_pct: 'dram__throughput.avg.pct_of_peak_sustained_elapsed',
  sm_throughput_pct: 'sm__throughput.avg.pct_of_peak_sustained_elapsed',
  achieved_occupancy_pct: 'sm__warps_active.avg.pct_of_peak_sustained_active',
  l2_hit_rate_pct: 'lts__t_sector_hit_rate.pct',
  duration_ns: 'gpu__time_duration.sum',
} as const;
export type NcuMetric = keyof typeof NCU_METRICS;

export const NCU_TIMEOUT_MS = 120_000;
/** Launches profiled at most (each is replayed once per pass: a few passes for this metric set). */
export const NCU_LAUNCH_COUNT = 8;

export function findNcu(): string | null {
  for (const d of ['/usr/local/cuda/bin', '/usr/local/bin', '/usr/bin', '/opt/nvidia/nsight-compute']) {
    const p = join(d, 'ncu');
    if (existsSync(p)) return realpathSync(p);
  }
  return null;
}

/** The counters of a cuda candidate at compile time: the ncu run (profile/ncu-run.ts) replaces them for an accepted
    attempt; the reason, the most basic one first. */
export function gpuCounters(ncu: string | null = findNcu()): HardwareCounters {
  return {
    available: false,
    reason: ncu
      ? `not measured: Nsight Compute (${ncu}) runs once, untimed, for an accepted attempt only`
      : 'not available here, because Nsight Compute (ncu) is not on this runner',
  };
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * ncu's command line around `command` (what runs the candidate's kernels once): only the candidate's kernels (by
 * base name), at most NCU_LAUNCH_COUNT launches, the metric set, CSV on stdout, base units. ncu's defaults stay:
 * caches flushed before each replay and clocks locked to base, so figures are comparable between runs, not equal
 * to the timed run's.
 */
export function ncuArgv(ncu: string, kernels: readonly string[], command: readonly string[]): string[] {
  const filter = kernels.length
    ? ['--kernel-name-base', 'function', '--kernel-name', `regex:^(${kernels.map(escapeRegex).join('|')})$`]
    : [];
  return [
    ncu,
    '--csv',
    '--page',
    'details',
    '--print-units',
    'base',
    '--print-summary',
    'none',
    '--target-processes',
    'all',
    '--launch-count',
    String(NCU_LAUNCH_COUNT),
    ...filter,
    '--metrics',
    Object.values(NCU_METRICS).join(','),
    ...command,
  ];
}

export interface NcuKernel {
  id: number;
  name: string;
  block_size: string | null;
  grid_size: string | null;
  metrics: Partial<Record<NcuMetric, number>>;
}

/** RFC 4180 fields of one CSV line (ncu quotes every field). */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

const BY_NAME = new Map<string, NcuMetric>(Object.entries(NCU_METRICS).map(([k, v]) => [v, k as NcuMetric]));

/** A metric value: `1,234.5` (thousands grouped), `87.3`; null for `n/a` and the like. */
function numberOf(value: string): number | null {
  const v = value.replaceAll(',', '').trim();
  return /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(v) ? Number(v) : null;
}

/** ncu --csv --page details: one row per (launch, metric) after its `==PROF==` lines; rows grouped per launch ID. */
export function parseNcuCsv(text: string): NcuKernel[] {
  const lines = text.split(/\r?\n/);
  const head = lines.findIndex((l) => l.startsWith('"ID"'));
  if (head < 0) return [];
  const cols = csvFields(lines[head] as string);
  const at = (name: string) => cols.indexOf(name);
  const [iId, iKernel, iMetric, iUnit, iValue, iBlock, iGrid] = [
    at('ID'),
    at('Kernel Name'),
    at('Metric Name'),
    at('Metric Unit'),
    at('Metric Value'),
    at('Block Size'),
    at('Grid Size'),
  ];
  if (iId < 0 || iMetric < 0 || iValue < 0) return [];
  const kernels = new Map<number, NcuKernel>();
  for (const line of lines.slice(head + 1)) {
    if (!line.startsWith('"')) continue;
    const f = csvFields(line);
    const id = Number(f[iId]);
    if (!Number.isInteger(id)) continue;
    let k = kernels.get(id);
    if (!k) {
      k = {
        id,
        name: f[iKernel] ?? '',
        block_size: iBlock >= 0 ? (f[iBlock] ?? null) : null,
        grid_size: iGrid >= 0 ? (f[iGrid] ?? null) : null,
        metrics: {},
      };
      kernels.set(id, k);
    }
    const key = BY_NAME.get(f[iMetric] ?? '');
    let v = numberOf(f[iValue] ?? '');
    if (!key || v === null) continue;
    // Base units print the duration in ns; a run without --print-units base may say usecond or msecond.
    const unit = iUnit >= 0 ? (f[iUnit] ?? '') : '';
    if (key === 'duration_ns') v *= unit === 'usecond' ? 1e3 : unit === 'msecond' ? 1e6 : unit === 'second' ? 1e9 : 1;
    k.metrics[key] = v;
  }
  return [...kernels.values()];
}

/** ncu's own complaint, where it gave one instead of figures. */
export function ncuFailure(output: string): string | null {
  if (/ERR_NVGPUCTRPERM/.test(output))
    return 'not available here, because the driver restricts GPU performance counters to administrators (ERR_NVGPUCTRPERM)';
  if (/No kernels were profiled/i.test(output))
    return "not available: ncu profiled no kernel (none of the candidate's kernels ran under it)";
  const err = /==ERROR==\s*(.*)/.exec(output);
  return err ? `not available: ncu failed (${(err[1] as string).slice(0, 200)})` : null;
}

/** The counters of the longest profiled launch, as the facts carry them. */
export function ncuCounters(kernels: NcuKernel[]): HardwareCounters {
  if (kernels.length === 0) return { available: false, reason: 'not available: ncu printed no metrics' };
  const longest = kernels.reduce((a, b) => ((b.metrics.duration_ns ?? 0) > (a.metrics.duration_ns ?? 0) ? b : a));
  const values: Record<string, number> = {};
  for (const [k, v] of Object.entries(longest.metrics)) values[k] = v;
  return {
    available: true,
    reason: `Nsight Compute, ${kernels.length} launch${kernels.length === 1 ? '' : 'es'} profiled; the longest: ${longest.name.slice(0, 200)}`,
    values,
  };
}

/**
 * Runs `command` under ncu (never part of the timed run: the caller runs it after the timed run, on an accepted
 * attempt), bounded in time; the reason instead of figures where ncu is missing, refused or profiled nothing.
 * NOT YET RUN ON A GPU.
 */
export async function runNcuProfile(opts: {
  command: readonly string[];
  kernels: readonly string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  cgroup?: JobCgroup | null;
  signal?: AbortSignal;
  ncu?: string | null;
  timeoutMs?: number;
}): Promise<{ counters: HardwareCounters; kernels: NcuKernel[] }> {
  const ncu = opts.ncu !== undefined ? opts.ncu : findNcu();
  if (!ncu) return { counters: gpuCounters(null), kernels: [] };
  const r = await runCommand(ncuArgv(ncu, opts.kernels, opts.command), {
    cwd: opts.cwd,
    timeoutMs: opts.timeoutMs ?? NCU_TIMEOUT_MS,
    capBytes: 4 << 20,
    cgroup: opts.cgroup ?? null,
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  if (r.timedOut)
    return {
      counters: {
        available: false,
        reason: `not available: ncu ran past ${(opts.timeoutMs ?? NCU_TIMEOUT_MS) / 1000} s`,
      },
      kernels: [],
    };
  const kernels = parseNcuCsv(r.stdout);
  if (kernels.length === 0) {
    const why = ncuFailure(`${r.stdout}\n${r.stderr}`) ?? `not available: ncu exited with ${r.code} and no metrics`;
    return { counters: { available: false, reason: why }, kernels };
  }
  return { counters: ncuCounters(kernels), kernels };
}
