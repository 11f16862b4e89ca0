// Gathers a compiled cuda candidate's build facts: ptxas's resource usage per kernel (from the compile's own
// `-Xptxas -v`), the theoretical occupancy for the block size the source launches it with, and its SASS (cuobjdump,
// where the runner has it) or else the PTX ptxas compiled (kept by the compile's `-keep`). docs/evaluation.md
// "Build facts".
import { existsSync, lstatSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BuildFacts, CudaKernelFacts, CudaOccupancy } from '@kernelforge/sdk';
import { sandboxArgv } from '../sandbox/bwrap.js';
import type { JobCgroup } from '../sandbox/cgroup.js';
import { runCommand } from '../sandbox/spawn.js';
import { findDeviceHotLoop, ptxConstantBytes, ptxLaunchBounds, selectPtx, selectSass } from './device-code.js';
import { baseName, launchBlockSizes } from './launch.js';
import { gpuCounters } from './ncu.js';
import { LIMITS_SOURCE, archLimits, computeCapabilityOf, theoreticalOccupancy } from './occupancy.js';
import { parsePtxasInfo } from './ptxas.js';

/** Where the compile keeps nvcc's intermediate files (the PTX), inside the job's box; removed after. */
export const KEEP_DIR = 'kf-keep';
/** The flags the facts add to a cuda compile: ptxas's resource usage and the intermediate files. Neither changes
    the generated code (tested: the SASS sections of the kept cubin equal a plain build's). */
export const CUDA_FACTS_FLAGS = ['-Xptxas', '-v', '-keep', '-keep-dir', KEEP_DIR];
/** Block sizes shown when the source does not state its kernel's. */
export const ASSUMED_BLOCK_SIZES = [128, 256, 512, 1024];
export const NO_CUOBJDUMP = 'SASS needs cuobjdump, not on this runner: the assembly is the PTX that ptxas compiled';

const PTX_CAP = 32 << 20;
const SASS_CAP = 32 << 20;
const MAX_KERNELS = 200;
const TOOL_TIMEOUT_MS = 30_000;

/** cuobjdump beside nvcc or on the usual paths; null where the runner has none (checked at run time). */
export function findCuobjdump(nvcc?: string): string | null {
  const dirs = [nvcc ? dirname(nvcc) : null, '/usr/local/cuda/bin', '/usr/local/bin', '/usr/bin'];
  for (const d of dirs) {
    if (!d) continue;
    const p = join(d, 'cuobjdump');
    if (existsSync(p)) return realpathSync(p);
  }
  return null;
}

/** The arch of nvcc's flags (`-arch=sm_90`, `-arch sm_90`, `--gpu-architecture=sm_100a`); null without. */
export function archOfFlags(flags: readonly string[]): string | null {
  for (let i = 0; i < flags.length; i++) {
    const f = flags[i] as string;
    const m = /^(?:-arch|--gpu-architecture)=(\S+)$/.exec(f);
    if (m) return m[1] as string;
    if ((f === '-arch' || f === '--gpu-architecture') && flags[i + 1]) return flags[i + 1] as string;
  }
  return null;
}

interface ToolOpts {
  jobDir: string;
  uid?: number | undefined;
  cgroup?: JobCgroup | null;
  signal?: AbortSignal;
}

/** A read-only tool (c++filt, cuobjdump) over the candidate's output, in the same sandbox as the compile. */
function sandboxed(opts: ToolOpts, argv: string[], capBytes: number) {
  return runCommand(
    sandboxArgv(
      {
        workDir: opts.jobDir,
        writable: false,
        limits: { cpuSeconds: 30, processes: 16, fileSize: 1 << 20, openFiles: 64, addressSpace: 2 * 2 ** 30 },
      },
      argv,
    ),
    {
      cwd: opts.jobDir,
      timeoutMs: TOOL_TIMEOUT_MS,
      capBytes,
      dropRoot: true,
      cgroup: opts.cgroup ?? null,
      ...(opts.uid !== undefined ? { uid: opts.uid } : {}),
      env: { PATH: '/usr/local/cuda/bin:/usr/bin:/bin', HOME: '/tmp', LC_ALL: 'C', TMPDIR: '/tmp' },
      ...(opts.signal ? { signal: opts.signal } : {}),
    },
  );
}

async function demangle(opts: ToolOpts, names: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const mangled = names.filter((n) => /^_Z[\w$.]+$/.test(n));
  if (mangled.length > 0 && existsSync('/usr/bin/c++filt')) {
    const r = await sandboxed(opts, [realpathSync('/usr/bin/c++filt'), ...mangled], 1 << 20);
    const lines = r.stdout.split('\n');
    if (r.code === 0 && !r.timedOut)
      mangled.forEach((n, i) => {
        const d = lines[i]?.trim();
        if (d) out.set(n, d);
      });
  }
  return out;
}

/** A regular file of the job's box (not a link the candidate's build could have planted), capped; null otherwise. */
function readKept(path: string, capBytes: number): string | null {
  try {
    const st = lstatSync(path);
    if (!st.isFile()) return null;
    return readFileSync(path).subarray(0, capBytes).toString('utf8');
  } catch {
    return null;
  }
}

/** The PTX nvcc kept for the candidate's source (`source.ptx`, or the only .ptx there). */
export function keptPtx(keepDir: string): string | null {
  if (!existsSync(keepDir)) return null;
  const files = readdirSync(keepDir).filter((f) => f.endsWith('.ptx'));
  const pick = files.includes('source.ptx') ? 'source.ptx' : files.length === 1 ? files[0] : undefined;
  return pick ? readKept(join(keepDir, pick), PTX_CAP) : null;
}

function occupancyOf(
  arch: string,
  k: { registers: number; shared_bytes: number },
  sizes: number[] | undefined,
  bounds: { threads: number; required: boolean } | undefined,
): CudaOccupancy[] {
  const limits = archLimits(arch);
  if (!limits) return [];
  if (sizes?.length)
    return sizes.map((s) => theoreticalOccupancy(limits, k, s, `launched with ${s} threads per block in the source`));
  if (bounds?.required)
    return [theoreticalOccupancy(limits, k, bounds.threads, `.reqntid ${bounds.threads} (the block size it requires)`)];
  if (bounds)
    return [
      theoreticalOccupancy(
        limits,
        k,
        bounds.threads,
        `__launch_bounds__ maximum of ${bounds.threads} threads (the launch's own size is not a constant of the source)`,
      ),
    ];
  return ASSUMED_BLOCK_SIZES.map((s) =>
    theoreticalOccupancy(limits, k, s, `assumed ${s} threads: the launch's block size is not a constant of the source`),
  );
}

export async function gatherCudaFacts(
  opts: ToolOpts & {
    /** The compile's log, ptxas's info lines included. */
    log: string;
    source: string;
    flags: readonly string[];
    binary: string;
    nvcc?: string;
    /** Overrides the run-time lookup (tests). */
    cuobjdump?: string | null;
  },
): Promise<BuildFacts> {
  const notes: string[] = [];
  const arch = archOfFlags(opts.flags) ?? 'sm_90';
  const info = parsePtxasInfo(opts.log);
  // One -arch: every entry is for it; were there several targets, the one the flags name.
  const forArch = info.kernels.filter((k) => k.arch === null || k.arch === arch);
  const ptxasKernels = (forArch.length ? forArch : info.kernels).slice(0, MAX_KERNELS);
  if (info.kernels.length === 0) notes.push('no resource usage: ptxas reported no kernels (no __global__ function)');
  const ptx = keptPtx(join(opts.jobDir, KEEP_DIR));
  if (ptx === null) notes.push('no PTX: nvcc kept none');
  const bounds = ptx ? ptxLaunchBounds(ptx) : new Map();
  const names = await demangle(
    opts,
    ptxasKernels.map((k) => k.mangled),
  );
  const launches = launchBlockSizes(opts.source);
  if (!archLimits(arch))
    notes.push(`no occupancy: compute capability ${computeCapabilityOf(arch) ?? arch} is not in the limits table`);
  const kernels: CudaKernelFacts[] = ptxasKernels.map((k) => {
    const name = names.get(k.mangled) ?? k.mangled;
    const b = bounds.get(k.mangled);
    return {
      name: name.slice(0, 1000),
      mangled: k.mangled.slice(0, 1000),
      registers: k.registers,
      stack_bytes: k.stack_bytes,
      spill_store_bytes: k.spill_store_bytes,
      spill_load_bytes: k.spill_load_bytes,
      shared_bytes: k.shared_bytes,
      constant_bytes: k.constant_bytes,
      barriers: k.barriers,
      max_threads: b?.threads ?? null,
      occupancy: occupancyOf(arch, k, launches.get(baseName(name)), b),
    };
  });
  let picked = { symbols: [] as string[], assembly: '', truncated: false };
  let kind: 'sass' | 'ptx' = 'ptx';
  const cuobjdump = opts.cuobjdump !== undefined ? opts.cuobjdump : findCuobjdump(opts.nvcc);
  if (cuobjdump) {
    const r = await sandboxed(opts, [cuobjdump, '-sass', opts.binary], SASS_CAP);
    if (r.code === 0 && !r.timedOut) {
      picked = selectSass(r.stdout);
      kind = 'sass';
    } else
      notes.push(
        r.timedOut
          ? 'no SASS: cuobjdump ran past 30 s; the assembly is the PTX'
          : `no SASS: cuobjdump failed (${r.stderr.trim().slice(0, 200)}); the assembly is the PTX`,
      );
  } else notes.push(NO_CUOBJDUMP);
  if (kind === 'ptx' && ptx) picked = selectPtx(ptx);
  return {
    symbols: picked.symbols,
    assembly: picked.assembly,
    assembly_truncated: picked.truncated,
    hot_loop: findDeviceHotLoop(picked.assembly),
    vectorization: null,
    counters: gpuCounters(),
    cuda: {
      arch,
      kernels,
      user_constant_bytes: info.user_constant_bytes ?? (ptx ? ptxConstantBytes(ptx) : null),
      assembly_kind: kind,
      limits_source: LIMITS_SOURCE,
    },
    ...(notes.length ? { notes } : {}),
  };
}
