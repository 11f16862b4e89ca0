// The untimed Nsight Compute run of an accepted cuda candidate (docs/evaluation.md "Build facts", cuda): after the
// verdict, the harness runs once more with a small plan (one test case, the first benchmark case, a few samples),
// and the candidate's worker starts under ncu INSIDE its own sandbox (ncu must share the worker's namespaces to
// inject into it: a profiler outside bwrap's IPC and pid namespaces cannot reach it). ncu is limited to the
// candidate's kernels (their names from ptxas's facts) and 8 launches, and prints its CSV on the worker's stdout,
// which the harness captures as the program's output. That run's verdict and figures are thrown away: only the
// counters join `compile.facts` (profile/attach.ts). Where the runner cannot read the counters the facts say why.
// REHEARSED WITHOUT A GPU (test/ncu-run.test.ts: the C harness's cuda path with the stand-in worker and a stand-in
// ncu); bench/cuda-facts.mjs checks it on a GPU.
import { readFileSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BuildFacts, HardwareCounters } from '@kernelforge/sdk';
import { QUICK_TIMING, type TimingRules } from '../harness/plan.js';
import { baseName } from './launch.js';
import { findNcu, ncuArgv, ncuCounters, ncuFailure, parseNcuCsv } from './ncu.js';

/** The profiled harness run's timing: a warm-up and a few samples (ncu replays each profiled launch per pass). */
export const NCU_RUN_TIMING: TimingRules = { ...QUICK_TIMING, minSamples: 2, maxMs: 1_000, callTimeoutMs: 60_000 };
/** How long the profiled run's worker may take to exit (ms): ncu prints its CSV only once the worker has exited and it
    has resolved the metrics. With the harness's usual 1 s the first GPU run (H200, ncu 2025.3) read nothing: "the ncu
    run printed no metrics" for ReLU and the tiled matmul, while the same kernels under ncu outside the harness did.
    The second run, with this wait, still read nothing: the wait is needed but the cause is elsewhere (open). */
export const NCU_EXIT_WAIT_MS = 30_000;
/** The profiled run's private /tmp (ncu keeps its temporary files and lock there). */
export const NCU_TMP_BYTES = 256 << 20;

export type NcuCapability = { ok: true; ncu: string; roots: string[] } | { ok: false; reason: string };

/** `RmProfilingAdminOnly` of the NVIDIA driver (1: only administrators read the counters); null when unknown. */
export function profilingAdminOnly(params = '/proc/driver/nvidia/params'): boolean | null {
  try {
    const m = /^RmProfilingAdminOnly:\s*(\d+)/m.exec(readFileSync(params, 'utf8'));
    return m ? m[1] === '1' : null;
  } catch {
    return null;
  }
}

/**
 * Whether this runner can make the ncu run, and if not, why: KFORGE_NCU=0 turns it off; ncu must be installed; the
 * worker runs unprivileged (the job's uid), so a driver that keeps the counters to administrators refuses it.
 */
export function ncuCapability(
  o: { ncu?: string | null; params?: string; env?: NodeJS.ProcessEnv; workerIsRoot?: boolean } = {},
): NcuCapability {
  const env = o.env ?? process.env;
  if (env.KFORGE_NCU === '0')
    return { ok: false, reason: 'not available here, because the operator turned the ncu run off (KFORGE_NCU=0)' };
  const ncu = o.ncu !== undefined ? o.ncu : findNcu();
  if (!ncu) return { ok: false, reason: 'not available here, because Nsight Compute (ncu) is not on this runner' };
  const adminOnly = profilingAdminOnly(o.params);
  if (adminOnly && !o.workerIsRoot)
    return {
      ok: false,
      reason:
        'not available here, because the NVIDIA driver keeps GPU performance counters to administrators ' +
        '(RmProfilingAdminOnly=1) and the candidate runs unprivileged; an operator can allow them ' +
        '(options nvidia NVreg_RestrictProfilingToAdminUsers=0)',
    };
  // ncu's install folder (the launcher script beside its host and target libraries), mounted read-only in the
  // worker's sandbox where it is outside /usr.
  const real = realpathSync(ncu);
  const root = dirname(real);
  return { ok: true, ncu: real, roots: root.startsWith('/usr/') ? [] : [root] };
}

/** The kernels ncu profiles: the base names of the candidate's kernels (ptxas's facts). */
export function ncuKernelNames(facts: BuildFacts | undefined): string[] {
  return [...new Set((facts?.cuda?.kernels ?? []).map((k) => baseName(k.name)).filter((n) => /^[\w$]+$/.test(n)))];
}

/** What the worker's launch line gets before the worker's binary: ncu and its options. */
export function ncuWorkerPrefix(ncu: string, kernels: readonly string[]): string[] {
  return ncuArgv(ncu, kernels, []);
}

/** The counters from the profiled run's program output (ncu's CSV) and its error output; else why none. */
export function ncuCountersOf(run: { stdout: string; stderr: string; timedOut: boolean }): HardwareCounters {
  const kernels = parseNcuCsv(run.stdout);
  if (kernels.length > 0) return ncuCounters(kernels);
  if (run.timedOut) return { available: false, reason: 'not available: the ncu run ran past its limit' };
  return {
    available: false,
    reason:
      ncuFailure(`${run.stdout}\n${run.stderr}`) ??
      'not available: the ncu run printed no metrics (the worker ended before ncu wrote them)',
  };
}

/** The facts with the counters of the ncu run, or the reason there are none. */
export function withCounters(facts: BuildFacts | undefined, counters: HardwareCounters): BuildFacts | null {
  return facts ? { ...facts, counters } : null;
}
