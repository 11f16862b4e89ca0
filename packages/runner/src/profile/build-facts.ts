// Gathers a compiled C/C++ candidate's build facts in its compile sandbox: the assembly of `solution` and what it
// reaches, the hot loop, the vectorization report and the counters' availability (docs/evaluation.md "Build facts").
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildFacts } from '@kernelforge/sdk';
import { sandboxArgv } from '../sandbox/bwrap.js';
import type { JobCgroup } from '../sandbox/cgroup.js';
import { runCommand } from '../sandbox/spawn.js';
import { findHotLoop, selectAssembly } from './assembly.js';
import { cpuCounters } from './counters.js';
import { parseVectorizationReport } from './vectorization.js';

export const OBJDUMP_TIMEOUT_MS = 30_000;
/** The report file gcc writes beside the source (it is removed before the worker runs). */
export const VECTORIZATION_REPORT = 'vectorization.txt';
const OBJDUMP_CAP = 32 << 20;
const REPORT_CAP = 4 << 20;

/** Whether this compiler writes gcc's vectorization report (cc and c++ are gcc on the runners; clang is not). */
export function writesVectorizationReport(version: string): boolean {
  return /\bgcc\b|\bg\+\+\b|GCC/.test(version) && !/clang/i.test(version);
}

export async function gatherBuildFacts(opts: {
  jobDir: string;
  binary: string;
  reportWritten: boolean;
  uid?: number | undefined;
  cgroup?: JobCgroup | null;
  signal?: AbortSignal;
}): Promise<BuildFacts> {
  const notes: string[] = [];
  let vectorization: BuildFacts['vectorization'] = null;
  const reportPath = join(opts.jobDir, VECTORIZATION_REPORT);
  if (opts.reportWritten && existsSync(reportPath)) {
    vectorization = parseVectorizationReport(readFileSync(reportPath, 'utf8').slice(0, REPORT_CAP));
    rmSync(reportPath, { force: true });
  } else notes.push('no vectorization report: the compiler is not gcc');
  // The worker is the candidate's own binary: objdump reads it inside the same sandbox as the compile.
  const r = await runCommand(
    sandboxArgv(
      {
        workDir: opts.jobDir,
        writable: false,
        limits: { cpuSeconds: 30, processes: 16, fileSize: 1 << 20, openFiles: 64, addressSpace: 2 * 2 ** 30 },
      },
      ['/usr/bin/objdump', '-d', '--no-show-raw-insn', opts.binary],
    ),
    {
      cwd: opts.jobDir,
      timeoutMs: OBJDUMP_TIMEOUT_MS,
      capBytes: OBJDUMP_CAP,
      dropRoot: true,
      cgroup: opts.cgroup ?? null,
      ...(opts.uid !== undefined ? { uid: opts.uid } : {}),
      env: { PATH: '/usr/bin:/bin', HOME: '/tmp', LC_ALL: 'C', TMPDIR: '/tmp' },
      ...(opts.signal ? { signal: opts.signal } : {}),
    },
  );
  let picked = { symbols: [] as string[], assembly: '', truncated: false };
  if (r.code === 0 && !r.timedOut) {
    picked = selectAssembly(r.stdout);
    if (picked.symbols.length === 0) notes.push('no assembly: the worker has no `solution` symbol');
  } else
    notes.push(
      r.timedOut
        ? 'no assembly: objdump ran past 30 s'
        : `no assembly: objdump failed (${r.stderr.trim().slice(0, 200)})`,
    );
  return {
    symbols: picked.symbols,
    assembly: picked.assembly,
    assembly_truncated: picked.truncated,
    hot_loop: findHotLoop(picked.assembly),
    vectorization,
    counters: cpuCounters(),
    ...(notes.length ? { notes } : {}),
  };
}
