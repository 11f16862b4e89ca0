// Peaks measured on a quiet machine (issue 35): the peaks binary runs under the device's timing lock (no evaluation of
// ours is timed beside it, and it disturbs none), the load other work put on the machine is read over the run (this
// process and the binary itself not counted), and a run that other work disturbed is retried after a quiet second.
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { procStat, quietThreshold, waitForQuiet } from '../evaluate/quiet.js';

/** The compiled peaks binary and how to run it (cpu.ts builds it). */
export interface PeaksCommand {
  bin: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** One run of the peaks binary and what else the machine did meanwhile. */
export interface PeaksRun {
  stdout: string;
  /** Cores other work kept busy over the run (NaN: /proc could not be read). */
  outsideCores: number;
  /** Fewer outside busy cores than the judge's noisy threshold, and no evaluation timed beside it (the timing lock
      was held, or this machine has no `flock` to take it with). */
  quiet: boolean;
  /** Whether the device's timing lock was held over the run. */
  locked: boolean;
}

/** The machine's busy and total ticks (/proc/stat), and this process's own: itself and its reaped children, which the
    peaks binary is once it has exited (/proc/self/stat utime, stime, cutime, cstime). */
export interface CpuTicks {
  busy: number;
  total: number;
  own: number;
}

export function cpuTicks(): CpuTicks | null {
  const machine = procStat();
  if (!machine) return null;
  try {
    const text = readFileSync('/proc/self/stat', 'utf8');
    // The fields after the command name (which may hold spaces): state is field 3, utime 14 ... cstime 17.
    const f = text
      .slice(text.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    const own = (f[11] ?? 0) + (f[12] ?? 0) + (f[13] ?? 0) + (f[14] ?? 0);
    return { ...machine, own: Number.isFinite(own) ? own : 0 };
  } catch {
    return null;
  }
}

/**
 * Cores other work kept busy between two readings: the machine's busy ticks less this process's own (the peaks binary
 * included, once reaped), over the window. Our own run never counts as load; anything else does. NaN when a
 * reading is missing or the counters did not move.
 */
export function outsideBusyCores(a: CpuTicks | null, b: CpuTicks | null, cores: number): number {
  if (!a || !b) return Number.NaN;
  const total = b.total - a.total;
  if (!(total > 0)) return Number.NaN;
  const outside = b.busy - a.busy - (b.own - a.own);
  return Math.max(0, (outside / total) * cores);
}

/** Exit status flock gives when it could not take the lock in time (`-E`), told apart from the binary's own. */
const LOCK_TIMEOUT_EXIT = 75;

function lockedArgv(cmd: PeaksCommand, lockPath: string | null, waitS: number): [string, string[]] {
  return lockPath
    ? ['flock', ['-E', String(LOCK_TIMEOUT_EXIT), '-w', String(waitS), lockPath, cmd.bin, ...cmd.args]]
    : [cmd.bin, cmd.args];
}

/** `lock`: held, none to take (no flock), or busy (another evaluation was being timed: the run ran beside it). */
function judged(stdout: string, before: CpuTicks | null, lock: 'held' | 'none' | 'busy'): PeaksRun {
  const outsideCores = outsideBusyCores(before, cpuTicks(), availableParallelism());
  const quiet =
    lock !== 'busy' && Number.isFinite(outsideCores) && outsideCores < quietThreshold(availableParallelism());
  return { stdout, outsideCores, quiet, locked: lock === 'held' };
}

/** The exit status of a failed child: execFileSync's error says `status`, execFile's a numeric `code`. */
const status = (err: unknown) => {
  const e = err as { status?: number | null; code?: number | string };
  return e.status ?? (typeof e.code === 'number' ? e.code : undefined);
};

/**
 * One run at once (start-up: a device needs peaks before it can be offered). The lock is waited for `lockWaitS`; not
 * had by then, or no `flock` here, the binary runs without it and the run cannot count as quiet.
 */
export function runPeaksNow(cmd: PeaksCommand, lockPath: string | null, lockWaitS = 2): PeaksRun {
  const opts = { encoding: 'utf8' as const, timeout: 120_000, env: cmd.env, stdio: 'pipe' as const };
  let lock: 'none' | 'busy' = 'none';
  if (lockPath) {
    const before = cpuTicks();
    try {
      const [file, argv] = lockedArgv(cmd, lockPath, lockWaitS);
      return judged(execFileSync(file, argv, opts), before, 'held');
    } catch (err) {
      // The lock was busy, or flock is missing: the binary itself, unlocked. Any other failure is the binary's.
      if (status(err) === LOCK_TIMEOUT_EXIT) lock = 'busy';
      else if ((err as { code?: string }).code !== 'ENOENT') throw err;
    }
  }
  const before = cpuTicks();
  return judged(execFileSync(cmd.bin, cmd.args, opts), before, lock);
}

function runLocked(cmd: PeaksCommand, lockPath: string | null, lockWaitS: number): Promise<PeaksRun | 'busy'> {
  const before = cpuTicks();
  const [file, argv] = lockedArgv(cmd, lockPath, lockWaitS);
  return new Promise((resolve, reject) => {
    execFile(file, argv, { encoding: 'utf8', timeout: 120_000 + lockWaitS * 1000, env: cmd.env }, (err, stdout) => {
      if (err && status(err) === LOCK_TIMEOUT_EXIT) resolve('busy');
      else if (err) reject(err);
      else resolve(judged(stdout, before, lockPath !== null ? 'held' : 'none'));
    });
  });
}

export interface QuietMeasureOptions {
  /** Runs at most (each after a wait for a quiet second). */
  tries?: number;
  /** The longest wait for a quiet second before each run (ms). */
  waitMs?: number;
  /** The longest wait for the timing lock (s): another evaluation's timed phase holds it. */
  lockWaitS?: number;
  signal?: AbortSignal | undefined;
}

/**
 * Runs the peaks binary until one run finds the machine quiet, at most `tries` times, each after waiting (bounded) for
 * a quiet second and under the device's timing lock. Every run is returned, quiet or not, in order: a busy run can
 * only understate a peak, so the caller may still keep its figures as a floor, never as the ceiling results are
 * judged against.
 */
export async function runPeaksWhenQuiet(
  cmd: PeaksCommand,
  lockPath: string | null,
  opts: QuietMeasureOptions = {},
): Promise<PeaksRun[]> {
  const runs: PeaksRun[] = [];
  const tries = opts.tries ?? 3;
  for (let i = 0; i < tries && !opts.signal?.aborted; i++) {
    await waitForQuiet(opts.waitMs ?? 10_000, opts.signal);
    let run: PeaksRun | 'busy';
    try {
      run = await runLocked(cmd, lockPath, opts.lockWaitS ?? 60);
    } catch (err) {
      // No flock here: unlocked runs (nothing to lock with); the binary's own failure stops the tries.
      if ((err as { code?: string }).code !== 'ENOENT' || !lockPath) throw err;
      run = await runLocked(cmd, null, 0);
    }
    if (run === 'busy') continue;
    runs.push(run);
    if (run.quiet) break;
  }
  return runs;
}
