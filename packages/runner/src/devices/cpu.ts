// The cpu device: model, ISA and caches from /proc/cpuinfo and sysfs, peaks measured once per process (DESIGN 6.6) and
// again, on a quiet machine, when a result needs them (remeasure.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { arch, availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CpuInfo, Device, DevicePeaks } from '@kernelforge/sdk';
import { contentHash } from '../internal/hash.js';
import { cSourceDir } from '../internal/paths.js';
import { timingLockPath } from '../sandbox/timing-lock.js';
import { type CpuFeatures, cpuFeatures, theoreticalFlopsPerCycle } from './cpu-features.js';
import {
  type PeaksCommand,
  type PeaksRun,
  type QuietMeasureOptions,
  runPeaksNow,
  runPeaksWhenQuiet,
} from './quiet-peaks.js';

let measured: DevicePeaks | undefined;

function cpuModel(): string {
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    return /^model name\s*:\s*(.+)$/m.exec(info)?.[1]?.trim() ?? arch();
  } catch {
    return arch();
  }
}

/** The peaks binary's `key=value` lines. */
export function parsePeaksOutput(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const i = line.indexOf('=');
    if (i > 0) out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return out;
}

/**
 * The clock the theoretical peak is stated at: the faster of the measured and the listed one, where the measured one
 * is believable; unknown (0) where neither is. A measured clock above 7 GHz, or above 1.6x the listed one (turbo over
 * nominal is at most about 1.5x), is a clock test that did not measure cycles (an `add $1` chain on Intel's Golden
 * Cove and later, whose renamer folds it, read 11.97 GHz on a 2.x GHz Xeon): the listed clock is used alone then.
 */
export function theoreticalClockGhz(measured: number, listed: number): number {
  const believable = measured > 0 && measured < 7 && (listed <= 0 || measured <= 1.6 * listed);
  return Math.max(believable ? measured : 0, listed, 0);
}

/**
 * Peaks from one run of c/peaks.c: bandwidth is the larger of the non-temporal triad and the read-only sum; FLOP/s
 * the larger of all threads at once and one thread x physical cores (another process holding a core while we
 * measure does not hide the others). The theoretical FMA peak sits beside it: cores x the measured clock x the
 * flops per cycle of the FMA units (cpu-features.ts), of the machine `f` describes (this one unless given).
 */
export function peaksFromOutput(
  out: Record<string, string>,
  at: Date,
  load: number,
  f: CpuFeatures = cpuFeatures(),
): DevicePeaks {
  const num = (k: string) => {
    const v = Number(out[k]);
    return Number.isFinite(v) && v > 0 ? v : 0;
  };
  const cores = f.physical_cores;
  const clock = theoreticalClockGhz(num('clock_all_ghz'), f.listed_clock_ghz);
  const fpc = theoreticalFlopsPerCycle(f);
  const theoretical = clock > 0 ? cores * clock * fpc.flops : 0;
  // All threads and one thread (peaks.c): beside a neighbour on one core the all-threads runs wait for their slowest
  // thread, while one thread runs on a free core, as a candidate on its core budget does.
  const bw = Math.max(num('triad_nt_gbps'), num('read_gbps'), num('triad_nt_one_gbps'), num('read_one_gbps'));
  const fl = Math.max(num('gflops_all'), num('gflops_one') * cores);
  const runs = Math.min(num('fma_runs') || 1, num('mem_runs') || 1);
  const path = out.path ?? 'unknown';
  const mib = Math.round(num('array_bytes') / 2 ** 20);
  return {
    bandwidth_gbps: bw,
    fp32_gflops: fl,
    source: 'measured',
    ...(theoretical > 0
      ? {
          theoretical_fp32_gflops: theoretical,
          theoretical_basis:
            `${cores} core${cores === 1 ? '' : 's'} x ${clock.toFixed(2)} GHz x ${fpc.flops} flops/cycle ` +
            `(${fpc.pipes} ${fpc.fma ? 'FMA' : 'mul/add'} pipes x ${fpc.lanes} fp32 lanes${fpc.fma ? ' x 2' : ''})`,
        }
      : {}),
    measurement: {
      measured_at: at.toISOString(),
      runs: Math.max(1, Math.floor(runs)),
      code_path: path,
      bandwidth_method: `best of ${num('mem_runs') || '?'}: triad a = b + s*c with non-temporal stores (12 bytes/element) and a read-only sum, 3 arrays of ${mib} MiB on all threads; the larger`,
      flops_method: `best of ${num('fma_runs') || '?'}: ${out.chains ?? '?'} independent ${path} FMA chains per thread (${out.lanes ?? '?'} fp32 lanes) on all threads, and on one thread x ${cores} cores; the larger`,
      load_average: Math.round(load * 100) / 100,
      ...(num('clock_all_ghz') ? { clock_ghz: num('clock_all_ghz') } : {}),
      ...(num('triad_gbps') ? { triad_gbps: num('triad_gbps') } : {}),
      ...(num('triad_nt_gbps') ? { triad_nt_gbps: num('triad_nt_gbps') } : {}),
      ...(num('read_gbps') ? { read_gbps: num('read_gbps') } : {}),
      ...(num('gflops_one') ? { one_core_gflops: num('gflops_one') } : {}),
    },
  };
}

/** Compiles c/peaks.c once (by content hash): the command that runs it (about a second). */
export function peaksCommand(workDir = join(tmpdir(), 'kforge-runner')): PeaksCommand {
  mkdirSync(workDir, { recursive: true });
  const bin = join(workDir, `peaks-${contentHash(readFileSync(join(cSourceDir(), 'peaks.c'), 'utf8'))}`);
  if (!existsSync(bin))
    execFileSync('cc', ['-O3', '-march=native', '-fopenmp', '-o', bin, join(cSourceDir(), 'peaks.c')], {
      timeout: 60_000,
      stdio: 'pipe',
    });
  // Arrays well past the last-level cache (4x what one core sees, at least 32 MiB each).
  const bytes = Math.max(32 * 2 ** 20, 4 * llcBytes());
  return {
    bin,
    args: [String(bytes), String(cpuFeatures().physical_cores)],
    env: { ...process.env, OMP_WAIT_POLICY: 'passive' },
  };
}

/** The peaks of one run with the conditions it ran under: quiet or not, the outside load, the tries it took. */
export function withConditions(
  peaks: DevicePeaks,
  run: Pick<PeaksRun, 'quiet' | 'outsideCores'>,
  tries: number,
): DevicePeaks {
  if (!peaks.measurement) return peaks;
  return {
    ...peaks,
    measurement: {
      ...peaks.measurement,
      quiet: run.quiet,
      ...(Number.isFinite(run.outsideCores) ? { outside_busy_cores: Math.round(run.outsideCores * 100) / 100 } : {}),
      tries,
    },
  };
}

/**
 * Keeps the larger of two measurements, figure by figure: a peak is a ceiling, and a busy machine only understates it.
 * The record is the later run's, but once any run found the machine quiet the peaks stay `quiet` (the figures are at
 * least that run's) and say that run's outside load.
 */
export function mergePeaks(before: DevicePeaks | undefined, fresh: DevicePeaks): DevicePeaks {
  if (before?.source !== 'measured') return fresh;
  const bw = Math.max(before.bandwidth_gbps, fresh.bandwidth_gbps);
  const fl = Math.max(before.fp32_gflops, fresh.fp32_gflops);
  const theoretical = Math.max(before.theoretical_fp32_gflops ?? 0, fresh.theoretical_fp32_gflops ?? 0);
  const basis =
    (fresh.theoretical_fp32_gflops ?? 0) >= (before.theoretical_fp32_gflops ?? 0)
      ? fresh.theoretical_basis
      : before.theoretical_basis;
  const m = fresh.measurement;
  const b = before.measurement;
  const quietRun = m?.quiet === true ? m : b?.quiet === true ? b : undefined;
  const quiet = quietRun ? true : m?.quiet === false || b?.quiet === false ? false : undefined;
  return {
    bandwidth_gbps: bw,
    fp32_gflops: fl,
    source: 'measured',
    ...(theoretical > 0 ? { theoretical_fp32_gflops: theoretical } : {}),
    ...(basis ? { theoretical_basis: basis } : {}),
    ...(m
      ? {
          measurement: {
            ...m,
            ...(b?.clock_ghz !== undefined ? { clock_ghz: Math.max(b.clock_ghz, m.clock_ghz ?? 0) } : {}),
            remeasurements: (b?.remeasurements ?? 0) + 1,
            ...(quiet !== undefined ? { quiet } : {}),
            ...(quietRun?.outside_busy_cores !== undefined ? { outside_busy_cores: quietRun.outside_busy_cores } : {}),
          },
        }
      : {}),
  };
}

/**
 * STREAM-like bandwidth and an FMA throughput test, about a second, at once (a device needs peaks to be offered); cached
 * for the life of the process. Under the device's timing lock (`deviceId`, waited for 2 s) with the outside load
 * read over the run: a run beside other work is kept but marked `quiet: false`, and is measured again, on a quiet
 * machine, before any result is judged against it (remeasure.ts).
 */
export function measureCpuPeaks(
  workDir = join(tmpdir(), 'kforge-runner'),
  fresh = false,
  deviceId?: string,
): DevicePeaks {
  if (measured && !fresh) return measured;
  const shared = fresh ? undefined : sharedPeaks();
  if (shared) {
    measured = shared;
    return measured;
  }
  try {
    const load = loadavg()[0] ?? 0;
    const at = new Date();
    const run = runPeaksNow(peaksCommand(workDir), deviceId ? timingLockPath(deviceId) : null);
    measured = mergePeaks(measured, withConditions(peaksFromOutput(parsePeaksOutput(run.stdout), at, load), run, 1));
    sharePeaks(measured);
  } catch {
    measured ??= { bandwidth_gbps: 0, fp32_gflops: 0, source: 'unknown' };
  }
  return measured;
}

/**
 * KFORGE_CPU_PEAKS_SHARE (test suites only; unset in the product): a file through which the processes of one test run
 * share the start-up peaks run instead of each making its own (about 1.7 cpu-s and 4 s of wall time, under the
 * timing lock, for every test server and runner process: some 70 a run). Keyed by this machine's peaks program and
 * cpu, so another machine's or another build's figures are never taken. A re-measurement (remeasure.ts, `fresh`)
 * always runs.
 */
function sharedPeaksKey(): string {
  const f = cpuFeatures();
  const program = contentHash(readFileSync(join(cSourceDir(), 'peaks.c'), 'utf8'));
  return `${program}\0${cpuModel()}\0${f.physical_cores}\0${availableParallelism()}`;
}

interface SharedRecord {
  key?: string;
  peaks?: DevicePeaks;
  /** When the latest re-measurement in the record was made (ms since the epoch); absent: none yet. */
  remeasured_at?: number;
}

function readShared(): SharedRecord | undefined {
  const file = process.env.KFORGE_CPU_PEAKS_SHARE;
  if (!file) return undefined;
  try {
    const got = JSON.parse(readFileSync(file, 'utf8')) as SharedRecord;
    return got.key === sharedPeaksKey() && got.peaks?.source === 'measured' ? got : undefined;
  } catch {
    return undefined;
  }
}

export function sharedPeaks(): DevicePeaks | undefined {
  return readShared()?.peaks;
}

/**
 * The latest re-measurement any process of this test run made (remeasure.ts takes it instead of making its own within
 * its interval: some 70 re-measurements a run, each 2.5 cpu-s under the timing lock after a wait for a quiet
 * second, had been made by processes that each re-measured once).
 */
export function sharedRemeasurement(): { peaks: DevicePeaks; at: number } | undefined {
  const got = readShared();
  return got?.peaks && typeof got.remeasured_at === 'number' ? { peaks: got.peaks, at: got.remeasured_at } : undefined;
}

/** Shares `peaks` (with `remeasuredAt`: a re-measurement, raising what is shared, never lowering it). */
export function sharePeaks(peaks: DevicePeaks, remeasuredAt?: number): void {
  const file = process.env.KFORGE_CPU_PEAKS_SHARE;
  if (!file || peaks.source !== 'measured') return;
  try {
    const record: SharedRecord =
      remeasuredAt === undefined
        ? { key: sharedPeaksKey(), peaks }
        : { key: sharedPeaksKey(), peaks: mergePeaks(sharedPeaks(), peaks), remeasured_at: remeasuredAt };
    writeFileSync(`${file}.${process.pid}`, JSON.stringify(record));
    renameSync(`${file}.${process.pid}`, file);
  } catch {
    /* a test run's convenience: without it each process measures its own */
  }
}

/**
 * The peaks measured again on a quiet machine: each run after a quiet second (bounded) and under the device's timing
 * lock, retried while other work disturbs it (runPeaksWhenQuiet). Every run's figures are merged (only ever raised);
 * the result is `quiet` once one run was. Null when no run could be made.
 */
export async function measureCpuPeaksWhenQuiet(
  deviceId: string,
  opts: { workDir?: string } & QuietMeasureOptions = {},
): Promise<DevicePeaks | null> {
  const cmd = peaksCommand(opts.workDir);
  let merged: DevicePeaks | null = null;
  let tries = 0;
  const runs = await runPeaksWhenQuiet(cmd, timingLockPath(deviceId), opts);
  for (const run of runs) {
    tries++;
    const p = withConditions(peaksFromOutput(parsePeaksOutput(run.stdout), new Date(), loadavg()[0] ?? 0), run, 1);
    merged = merged ? mergePeaks(merged, p) : p;
  }
  if (!merged?.measurement) return merged;
  // One re-measurement, however many runs it took.
  const { remeasurements: _, ...m } = merged.measurement;
  merged = { ...merged, measurement: { ...m, tries } };
  measured = mergePeaks(measured, merged);
  sharePeaks(measured, Date.now());
  return merged;
}

let llc: number | undefined;

/** The last-level cache one core sees (bytes), from sysfs: the highest cache level listed for cpu0. Not
    glibc's sysconf, which on AMD EPYC virtual machines reports the whole package's L3 (384 MiB on a VM whose
    two cores share one 32 MiB L3). 0 when unknown (the harness then asks sysconf). */
export function llcBytes(): number {
  if (llc !== undefined) return llc;
  let best = 0;
  let bestLevel = 0;
  for (let i = 0; i < 8; i++) {
    const dir = `/sys/devices/system/cpu/cpu0/cache/index${i}`;
    try {
      const level = Number(readFileSync(join(dir, 'level'), 'utf8'));
      const size = readFileSync(join(dir, 'size'), 'utf8').trim();
      const bytes = Number.parseInt(size, 10) * (size.endsWith('M') ? 2 ** 20 : size.endsWith('K') ? 1024 : 1);
      if (level >= bestLevel && bytes > 0) {
        bestLevel = level;
        best = bytes;
      }
    } catch {
      break;
    }
  }
  llc = best;
  return best;
}

/** The last-level cache of the machine a device describes (bytes): its stated caches, where it states them (a test
    injects another machine's), else this machine's (llcBytes). */
export function deviceLlcBytes(device: {
  cpu?: { caches?: { l2_bytes: number; l3_bytes: number } | undefined } | undefined;
}): number {
  const c = device.cpu?.caches;
  return c ? c.l3_bytes || c.l2_bytes || llcBytes() : llcBytes();
}

/** The ISA, vector registers and caches kernels (and the tuner's spaces) are fitted to, of the machine `f`
    describes (this one unless given). */
export function cpuInfo(f: CpuFeatures = cpuFeatures()): CpuInfo {
  return {
    arch: f.arch,
    vector_isa: f.vector_isa,
    isa: f.isa,
    vector_bits: f.vector_bits,
    vector_registers: f.vector_registers,
    physical_cores: f.physical_cores,
    caches: f.caches,
  };
}

/** The architecture as the device id spells it: `x86_64`, `arm64`. */
export function archName(a: string = arch()): string {
  return a === 'x64' ? 'x86_64' : a;
}

/**
 * A cpu device is named by what makes its numbers comparable, as a GPU is by its model: the architecture, the vector
 * ISA class kernels compile to at -march=native (avx512, avx2, avx, sse, neon) and the CPU model, e.g.
 * `cpu-x86_64-avx512-intel-xeon-platinum-8481c`. Where the model name carries no model number (a VM that shows
 * `AMD EPYC`), the CPUID family and model say which generation it is (`cpu-x86_64-avx512-amd-epyc-f26m2`). So an
 * AVX2 machine and an AVX-512 one, or two CPU generations, never share a leaderboard. `cpu-x86_64` alone (the id
 * before 2026-11-26) still names the one device of that architecture a server knows (DeviceRegistry.resolve).
 */
export function cpuDeviceId(a: string, f: Pick<CpuFeatures, 'vector_isa' | 'family_model'>, model: string): string {
  // No model name at all (arm64's cpuinfo has none): cpuModel() gave the architecture, which says nothing more.
  const slug = (model === a || model === archName(a) ? '' : model)
    .toLowerCase()
    .replace(/\((r|tm|c)\)/g, ' ')
    .replace(/@.*$/, ' ')
    .replace(/\b(cpu|processor|\d+-core)\b/g, ' ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  const generation =
    /\d/.test(slug) || !f.family_model
      ? ''
      : `-f${f.family_model
          .split('/')
          .join('m')
          .replace(/[^a-z0-9]/gi, '')}`;
  return ['cpu', archName(a), f.vector_isa, slug].filter(Boolean).join('-') + generation;
}

/** The generic id a cpu device id extends (`cpu-x86_64` for `cpu-x86_64-avx512-...`), or undefined: the id every
    x86-64 cpu device had before 2026-11-26, so jobs queued under it at an upgrade are still served. */
export function genericDeviceId(id: string): string | undefined {
  return /^(cpu-[a-z0-9_]+)-[a-z0-9]/.exec(id)?.[1];
}

/** The device of `devices` a job's device id names: its own id, or the generic one it extends (genericDeviceId). */
export function deviceForJob<D extends { id: string }>(devices: readonly D[], id: string): D | undefined {
  return devices.find((d) => d.id === id) ?? devices.find((d) => genericDeviceId(d.id) === id);
}

export function cpuDevice(workDir?: string): Device {
  const features = cpuFeatures();
  const id = cpuDeviceId(arch(), features, cpuModel());
  return {
    id,
    kind: 'cpu',
    name: cpuModel(),
    cores: availableParallelism(),
    peaks: structuredClone(measureCpuPeaks(workDir, false, id)),
    available: true,
    runners: 1,
    languages: ['c', 'cpp'],
    cpu: cpuInfo(features),
  };
}
