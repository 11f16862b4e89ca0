// Compiles a candidate with the fixed flags, inside the sandbox (so `#include "/secret"` finds nothing).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildFacts, CompileReport, Language } from '@kernelforge/sdk';
import { makeShared } from '../../../sandbox/shared-folder.js';
import { VECTORIZATION_REPORT, gatherBuildFacts, writesVectorizationReport } from '../../../profile/build-facts.js';
import { CUDA_FACTS_FLAGS, KEEP_DIR, gatherCudaFacts } from '../../../profile/cuda-facts.js';
import { withoutPtxasInfo } from '../../../profile/ptxas.js';
import { VECTORIZATION_FLAG } from '../../../profile/vectorization.js';
import { sandboxArgv } from '../../../sandbox/bwrap.js';
import type { JobCgroup } from '../../../sandbox/cgroup.js';
import { runCommand } from '../../../sandbox/spawn.js';
import type { Toolchain } from './toolchain.js';

export const COMPILE_TIMEOUT_MS = 120_000;
const LOG_CAP = 64 * 1024;
const PTXAS_INFO_CAP = 1 << 20;

export interface CompileOutcome {
  report: CompileReport;
  timedOut: boolean;
  /** The worker binary, relative to the job directory. */
  binary: string;
}

const SOURCE_NAME: Record<Language, string> = {
  c: 'source.c',
  cpp: 'source.cpp',
  cuda: 'source.cu',
  pytorch: 'candidate.py',
};

export async function compileCandidate(opts: {
  jobDir: string;
  language: Language;
  source: string;
  toolchain: Toolchain;
  workerObjects: string[];
  /** The job's sandbox uid when the runner is root (jobUid). */
  uid?: number | undefined;
  cgroup?: JobCgroup | null;
  signal?: AbortSignal;
}): Promise<CompileOutcome> {
  const file = SOURCE_NAME[opts.language];
  writeFileSync(join(opts.jobDir, file), opts.source);
  const tc = opts.toolchain;
  // Build facts (C and C++): gcc writes its vectorization report to a file; the flag changes no generated code.
  const facts = opts.language === 'c' || opts.language === 'cpp';
  const report = facts && writesVectorizationReport(tc.version);
  // cuda: ptxas's resource usage on stderr (-Xptxas -v) and the PTX kept (-keep); neither changes the code.
  const cuda = opts.language === 'cuda';
  const extra = report ? [`${VECTORIZATION_FLAG}=${VECTORIZATION_REPORT}`] : cuda ? CUDA_FACTS_FLAGS : [];
  // gcc appends to the report file: a compile again in the same folder must not read the last one's loops.
  if (report) rmSync(join(opts.jobDir, VECTORIZATION_REPORT), { force: true });
  const keepDir = join(opts.jobDir, KEEP_DIR);
  if (cuda) {
    rmSync(keepDir, { recursive: true, force: true });
    mkdirSync(keepDir);
    makeShared(keepDir, opts.uid);
  }
  const argv = [tc.binary, ...tc.flags, ...extra, '-o', 'worker', file, ...opts.workerObjects, ...tc.linkFlags];
  const r = await runCommand(
    sandboxArgv(
      {
        workDir: opts.jobDir,
        writable: true,
        limits: {
          cpuSeconds: 180,
          processes: 128,
          fileSize: 512 << 20,
          openFiles: 256,
          ...(opts.language === 'cuda' ? {} : { addressSpace: 4 * 2 ** 30 }),
        },
      },
      argv,
    ),
    {
      cwd: opts.jobDir,
      timeoutMs: COMPILE_TIMEOUT_MS,
      // ptxas's info lines are taken out of the log below: room for them beside the log's own 64 KiB.
      capBytes: cuda ? LOG_CAP + PTXAS_INFO_CAP : LOG_CAP,
      dropRoot: true,
      cgroup: opts.cgroup ?? null,
      ...(opts.uid !== undefined ? { uid: opts.uid } : {}),
      env: { PATH: '/usr/local/cuda/bin:/usr/bin:/bin', HOME: '/tmp', LC_ALL: 'C', TMPDIR: '/tmp' },
      ...(opts.signal ? { signal: opts.signal } : {}),
    },
  );
  const fullLog = `${r.stdout}${r.stderr}`.replaceAll('/w/', '');
  const log = cuda ? capLog(withoutPtxasInfo(fullLog)) : fullLog;
  const ok = r.code === 0 && !r.timedOut;
  let built: BuildFacts | undefined;
  if (ok && cuda) {
    try {
      built = await gatherCudaFacts({
        jobDir: opts.jobDir,
        log: fullLog,
        source: opts.source,
        flags: tc.flags,
        binary: 'worker',
        nvcc: tc.binary,
        uid: opts.uid,
        cgroup: opts.cgroup ?? null,
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
    } catch {
      // Facts explain a result; they never decide one.
      built = undefined;
    }
  }
  if (cuda) rmSync(keepDir, { recursive: true, force: true });
  if (ok && facts) {
    try {
      built = await gatherBuildFacts({
        jobDir: opts.jobDir,
        binary: 'worker',
        reportWritten: report,
        uid: opts.uid,
        cgroup: opts.cgroup ?? null,
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
    } catch {
      // Facts explain a result; they never decide one.
      built = undefined;
    }
  }
  return {
    report: {
      ok,
      compiler: `${tc.compiler} (${tc.version})`,
      flags: [...tc.flags, ...tc.linkFlags],
      log: r.timedOut ? `${log}\n[compile timed out after ${COMPILE_TIMEOUT_MS / 1000} s]` : log,
      duration_ms: r.durationMs,
      ...(built ? { facts: built } : {}),
    },
    timedOut: r.timedOut,
    binary: 'worker',
  };
}

/** A log at most LOG_CAP bytes, as the capture would have kept it. */
function capLog(log: string): string {
  return Buffer.byteLength(log) <= LOG_CAP ? log : Buffer.from(log).subarray(0, LOG_CAP).toString('utf8');
}
