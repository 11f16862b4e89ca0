// A PyTorch candidate's facts (docs/evaluation.md "Build facts", torch). On a cpu the candidate's own worker gives them
// once its timed phase is over (py/kforge_torch/facts.py, the harness's `facts`: inbandBuildFacts). On cuda, and for
// a run that timed nothing, after an accepted evaluation one extra,
// untimed run of py/kforge_torch/profile.py in the candidate's own sandbox (its box, read-only, pid 1, rlimits, the
// job's cgroup, the worker's seccomp filter on a cpu) lists what one `ModelNew` call launched (torch.profiler) and
// its Triton kernels' compiled metadata. Its output is the candidate's process's: read as one JSON line, checked
// against the schema, capped. It never changes the verdict or a figure (profile/attach.ts).
import { closeSync, existsSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BuildFacts, TorchFacts } from '@kernelforge/sdk';
import { entryArgs, stagePackage, WORKER_MODULES } from './py-package.js';
import { sandboxArgv } from '../../sandbox/bwrap.js';
import type { JobSandbox } from '../../sandbox/job-sandbox.js';
import { runCommand } from '../../sandbox/spawn.js';

/** The profiled run's wall limit: a model build, two warm-up calls (Triton compiles its kernels in the first),
    one profiled call. KFORGE_TORCH_FACTS_TIMEOUT_S changes it. */
export const torchFactsTimeoutMs = () => (Number(process.env.KFORGE_TORCH_FACTS_TIMEOUT_S) || 90) * 1000;
const MARK = 'KF_TORCH_FACTS ';

export interface TorchFactsRun {
  sandbox: JobSandbox;
  python: string;
  /** Read-only host folders the interpreter needs (the torch toolchain's roots). */
  roots?: readonly string[] | undefined;
  device: 'cpu' | 'cuda';
  threads: number;
  /** The reference (for get_inputs/get_init_inputs) and the first benchmark case's sizes. */
  referenceSource: string;
  fileName: string;
  constants: Record<string, number>;
  ctorSeed: number;
  /** The worker's seccomp filter, written in the job folder (cpu with bwrap); null: none. */
  seccompPath: string | null;
  env: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
}

/** The facts a run printed (the last marked line), or why none. */
export function parseTorchFacts(stdout: string): { facts: TorchFacts } | { error: string } {
  const line = stdout
    .split('\n')
    .filter((l) => l.startsWith(MARK))
    .pop();
  if (!line) return { error: 'the profiled run printed no facts' };
  let raw: unknown;
  try {
    raw = JSON.parse(line.slice(MARK.length));
  } catch {
    return { error: 'the profiled run printed facts that are not JSON' };
  }
  const parsed = TorchFacts.safeParse(raw);
  return parsed.success
    ? { facts: parsed.data }
    : { error: `the profiled run printed facts of another shape (${parsed.error.issues[0]?.message ?? '?'})` };
}

/** The build facts of the torch facts the candidate's worker gave after its timed phase (the harness's report). */
export function inbandBuildFacts(got: { line: string } | { error: string }): BuildFacts {
  if ('error' in got) return torchBuildFacts(null, [`no torch facts: ${got.error}`]);
  const parsed = parseTorchFacts(`${MARK}${got.line}`);
  return 'facts' in parsed
    ? torchBuildFacts(parsed.facts, [])
    : torchBuildFacts(null, [`no torch facts: ${parsed.error}`]);
}

/** Build facts around torch facts: no assembly, no vectorization report; counters: why none. */
export function torchBuildFacts(torch: TorchFacts | null, notes: string[]): BuildFacts {
  return {
    symbols: [],
    assembly: '',
    assembly_truncated: false,
    hot_loop: null,
    vectorization: null,
    counters: {
      available: false,
      reason:
        torch?.device === 'cuda'
          ? 'not available for PyTorch candidates: the kernels and their device times come from torch.profiler (Nsight Compute runs on cuda C candidates)'
          : 'not available here, because the candidate runs under a seccomp filter that refuses perf_event_open on purpose; the operators and their cpu times come from torch.profiler',
    },
    ...(torch ? { torch } : {}),
    ...(notes.length ? { notes: notes.map((n) => n.slice(0, 500)) } : {}),
  };
}

/** Stages the profiled run in the candidate's box and runs it; the facts, or build facts with the reason none. */
export async function gatherTorchFacts(o: TorchFactsRun): Promise<BuildFacts> {
  const box = o.sandbox.path('box');
  // The profiler imports the candidate as a worker does (the worker's modules), and the reference (common.py).
  stagePackage(box, [...WORKER_MODULES, 'profile.py', 'common.py']);
  writeFileSync(join(box, 'kf_profile_reference.py'), o.referenceSource);
  writeFileSync(
    join(box, 'kf_profile_plan.json'),
    JSON.stringify({
      device: o.device,
      threads: o.threads,
      file_name: o.fileName,
      constants: o.constants,
      ctor_seed: o.ctorSeed,
    }),
  );
  const seccomp = o.seccompPath && existsSync(o.seccompPath) ? openSync(o.seccompPath, 'r') : null;
  const timeoutMs = o.timeoutMs ?? torchFactsTimeoutMs();
  try {
    const r = await runCommand(
      sandboxArgv(
        {
          workDir: box,
          writable: false,
          ...(o.roots ? { roBinds: o.roots } : {}),
          limits: {
            cpuSeconds: Math.ceil((timeoutMs / 1000) * Math.max(1, o.threads)),
            processes: process.getuid?.() === 0 ? 128 : 512,
            fileSize: 64 << 20,
            openFiles: 128,
            ...(o.device === 'cuda' ? {} : { addressSpace: 9 * 2 ** 30 }),
          },
          gpu: o.device === 'cuda',
          asPid1: true,
          ...(o.device === 'cuda' ? { tmpBytes: 512 << 20 } : {}),
          ...(seccomp !== null ? { seccompFd: 3 } : {}),
        },
        [o.python, '-I', '-B', '-u', ...entryArgs('profile'), '--plan', '/w/kf_profile_plan.json'],
      ),
      {
        cwd: box,
        timeoutMs,
        capBytes: 64 * 1024,
        stdoutCapBytes: 1 << 20,
        dropRoot: true,
        cgroup: o.sandbox.cgroup,
        ...(o.sandbox.uid !== undefined ? { uid: o.sandbox.uid } : {}),
        ...(seccomp !== null ? { extraFds: [seccomp] } : {}),
        env: o.env,
        ...(o.signal ? { signal: o.signal } : {}),
      },
    );
    if (r.timedOut) return torchBuildFacts(null, [`no torch facts: the profiled run ran past ${timeoutMs / 1000} s`]);
    const got = parseTorchFacts(r.stdout);
    if ('facts' in got) return torchBuildFacts(got.facts, []);
    const last = r.stderr.trim().split('\n').filter(Boolean).pop() ?? '';
    return torchBuildFacts(null, [
      `no torch facts: ${got.error} (exit ${r.code ?? r.signal})${last ? `: ${last.slice(0, 300)}` : ''}`,
    ]);
  } finally {
    if (seccomp !== null) closeSync(seccomp);
  }
}
