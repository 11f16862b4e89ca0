// Runs a command with a wall timeout that kills its whole process group, capturing capped output.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { JobCgroup } from './cgroup.js';

export interface SpawnResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  /** Extra pipes (fd 3, 4, ...) the command was given, captured the same way. */
  extra: string[];
  durationMs: number;
}

export const NOBODY_UID = 65534;

/**
 * A uid of its own for one evaluation's sandboxes when the runner is root, from a range no account uses.
 * RLIMIT_NPROC counts processes per real uid, so under one shared uid (nobody) a fork bomb in one sandbox
 * would stop every other sandbox on the machine from starting; with a uid per job it fills only its own
 * quota. undefined when the runner is not root (the sandbox then runs as the runner's user).
 */
export function jobUid(): number | undefined {
  if (process.getuid?.() !== 0) return undefined;
  return 1_000_000_000 + randomInt(1_000_000_000);
}

export interface SpawnOptions {
  cwd: string;
  timeoutMs: number;
  /** Bytes kept per stream; the rest is drained and dropped so a flood cannot block or exhaust memory. */
  capBytes?: number;
  /** A separate cap for stdout (the harness prints its report there). */
  stdoutCapBytes?: number;
  /** Additional output pipes handed to the child as fd 3, 4, ... */
  extraPipes?: number;
  /** Run as nobody when we are root (so rlimits on processes apply and host files are out of reach). */
  dropRoot?: boolean;
  /** The uid (and gid) dropRoot runs as, instead of nobody: a job's own (see jobUid). */
  uid?: number;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Run inside the job's cgroup (joined before the command's first instruction) and kill everything in it
      when the command ends. */
  cgroup?: JobCgroup | null | undefined;
  /** Open files handed to the child after the extra pipes (fd 3 + extraPipes, ...), e.g. the timing lock. */
  extraFds?: number[];
}

/** How long the output pipes may stay open after the command itself has exited (something it left behind
    holding them): the run ends anyway, and whatever holds them is killed. */
const DRAIN_AFTER_EXIT_MS = 1000;

/** Every process below `pid` (children lists of each thread), read before anything is killed so the tree is
    intact. A sandbox's pid 1 is among them: killing it ends its whole pid namespace. */
export function descendantsOf(pid: number): number[] {
  const out: number[] = [];
  const queue = [pid];
  const seen = new Set<number>();
  while (queue.length > 0 && out.length < 4096) {
    const p = queue.shift() as number;
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      continue;
    }
    for (const t of tasks) {
      let text = '';
      try {
        text = readFileSync(`/proc/${p}/task/${t}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const c of text.split(/\s+/).filter(Boolean).map(Number)) {
        if (seen.has(c)) continue;
        seen.add(c);
        out.push(c);
        queue.push(c);
      }
    }
  }
  return out;
}

class Capped {
  private chunks: Buffer[] = [];
  private kept = 0;
  private dropped = 0;
  constructor(private readonly cap: number) {}
  push(b: Buffer): void {
    const room = this.cap - this.kept;
    if (room > 0) {
      const part = b.subarray(0, room);
      this.chunks.push(part);
      this.kept += part.length;
    }
    this.dropped += Math.max(0, b.length - Math.max(room, 0));
  }
  text(): string {
    const s = Buffer.concat(this.chunks).toString('utf8');
    return this.dropped > 0 ? `${s}\n[... ${this.dropped} more bytes dropped]` : s;
  }
}

export function runCommand(argv: readonly string[], opts: SpawnOptions): Promise<SpawnResult> {
  if (!argv[0]) throw new Error('empty command');
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawnChild(argv, opts);
    const outs = captureOutputs(child, opts);
    const state = { timedOut: false, aborted: false, exited: false, done: false };
    const killGroup = () => killTree(child, state.exited);
    const timer = setTimeout(() => {
      state.timedOut = true;
      killGroup();
    }, opts.timeoutMs);
    const onAbort = () => {
      state.aborted = true;
      killGroup();
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    // The run ends when the command exits (plus a moment to drain its output), never on its pipes closing
    // alone: a process it left behind could hold them open forever.
    let drainTimer: NodeJS.Timeout | undefined;
    const finish = async (code: number | null, signal: NodeJS.Signals | null) => {
      if (state.done) return;
      state.done = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      killGroup(); // anything it left behind in its group
      if (opts.cgroup) await opts.cgroup.killAll();
      for (const s of child.stdio) s?.destroy();
      resolve({
        code,
        signal,
        stdout: outs[0]?.text() ?? '',
        stderr: outs[1]?.text() ?? '',
        extra: outs.slice(2).map((o) => o.text()),
        timedOut: state.timedOut,
        aborted: state.aborted,
        durationMs: performance.now() - started,
      });
    };
    child.on('exit', (code, signal) => {
      // Kill what it left behind before the tree is gone from /proc (its children are re-parented once it is reaped).
      killGroup();
      state.exited = true;
      drainTimer = setTimeout(() => void finish(code, signal), DRAIN_AFTER_EXIT_MS);
    });
    child.on('close', (code, signal) => void finish(code, signal));
  });
}

/** Starts the command in a process group of its own: in the job's cgroup when given, as the job's uid when told to
    drop root. */
function spawnChild(argv: readonly string[], opts: SpawnOptions): ChildProcess {
  const extra = opts.extraPipes ?? 0;
  const asNobody = opts.dropRoot === true && typeof process.getuid === 'function' && process.getuid() === 0;
  const cgroup = opts.cgroup ?? null;
  // In a cgroup the join runs as root and drops to the job's uid itself (setpriv) after joining.
  const full = cgroup ? cgroup.wrap(argv, asNobody ? (opts.uid ?? NOBODY_UID) : undefined) : [...argv];
  return spawn(full[0] as string, full.slice(1), {
    cwd: opts.cwd,
    detached: true,
    env: opts.env ?? { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/tmp', LC_ALL: 'C' },
    stdio: [
      'ignore',
      'pipe',
      'pipe',
      ...Array.from({ length: extra }, () => 'pipe' as const),
      ...(opts.extraFds ?? []),
    ],
    ...(asNobody && !cgroup ? { uid: opts.uid ?? NOBODY_UID, gid: opts.uid ?? NOBODY_UID } : {}),
  });
}

/** stdout, stderr and the extra pipes, each kept up to its cap. */
function captureOutputs(child: ChildProcess, opts: SpawnOptions): Capped[] {
  const cap = opts.capBytes ?? 64 * 1024;
  const outs = [
    new Capped(opts.stdoutCapBytes ?? cap),
    new Capped(cap),
    ...Array.from({ length: opts.extraPipes ?? 0 }, () => new Capped(cap)),
  ];
  child.stdio.forEach((s, i) => {
    if (i === 0 || !s) return;
    (s as NodeJS.ReadableStream).on('data', (b: Buffer) => outs[i - 1]?.push(b));
  });
  return outs;
}

/**
 * Kills everything the command started, sandboxes' pid 1s included (their namespaces end with them), then its
 * process group. A sandbox may have left bwrap's group and session and turned off "die with parent": only killing
 * it by pid (or its cgroup) reaches it. Once the command has exited its tree is no longer in /proc.
 */
function killTree(child: ChildProcess, exited: boolean): void {
  if (!child.pid) return;
  const below = exited ? [] : descendantsOf(child.pid);
  for (const pid of below) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}
