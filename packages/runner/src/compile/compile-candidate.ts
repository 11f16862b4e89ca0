// Compiles a candidate with the fixed flags, inside the sandbox (so `#include "/secret"` finds nothing).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompileReport, Language } from '@kernelforge/sdk';
import { sandboxArgv } from '../sandbox/bwrap.js';
import type { JobCgroup } from '../sandbox/cgroup.js';
import { runCommand } from '../sandbox/spawn.js';
import type { Toolchain } from './toolchain.js';

export const COMPILE_TIMEOUT_MS = 120_000;
const LOG_CAP = 64 * 1024;

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
  const argv = [tc.binary, ...tc.flags, '-o', 'worker', file, ...opts.workerObjects, ...tc.linkFlags];
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
      capBytes: LOG_CAP,
      dropRoot: true,
      cgroup: opts.cgroup ?? null,
      ...(opts.uid !== undefined ? { uid: opts.uid } : {}),
      env: { PATH: '/usr/local/cuda/bin:/usr/bin:/bin', HOME: '/tmp', LC_ALL: 'C', TMPDIR: '/tmp' },
      ...(opts.signal ? { signal: opts.signal } : {}),
    },
  );
  const log = `${r.stdout}${r.stderr}`.replaceAll('/w/', '');
  return {
    report: {
      ok: r.code === 0 && !r.timedOut,
      compiler: `${tc.compiler} (${tc.version})`,
      flags: [...tc.flags, ...tc.linkFlags],
      log: r.timedOut ? `${log}\n[compile timed out after ${COMPILE_TIMEOUT_MS / 1000} s]` : log,
      duration_ms: r.durationMs,
    },
    timedOut: r.timedOut,
    binary: 'worker',
  };
}
