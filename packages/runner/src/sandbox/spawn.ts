// Runs a command with a wall timeout that kills its whole process group, capturing capped output.
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';

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
  const [cmd, ...args] = argv;
  if (!cmd) throw new Error('empty command');
  const cap = opts.capBytes ?? 64 * 1024;
  const extra = opts.extraPipes ?? 0;
  const asNobody = opts.dropRoot === true && typeof process.getuid === 'function' && process.getuid() === 0;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      detached: true,
      env: opts.env ?? { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/tmp', LC_ALL: 'C' },
      stdio: ['ignore', 'pipe', 'pipe', ...Array.from({ length: extra }, () => 'pipe' as const)],
      ...(asNobody ? { uid: opts.uid ?? NOBODY_UID, gid: opts.uid ?? NOBODY_UID } : {}),
    });
    const outs = [
      new Capped(opts.stdoutCapBytes ?? cap),
      new Capped(cap),
      ...Array.from({ length: extra }, () => new Capped(cap)),
    ];
    child.stdio.forEach((s, i) => {
      if (i === 0 || !s) return;
      (s as NodeJS.ReadableStream).on('data', (b: Buffer) => outs[i - 1]?.push(b));
    });
    let timedOut = false;
    let aborted = false;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, opts.timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      killGroup(); // anything it left behind in its group
      resolve({
        code,
        signal,
        stdout: outs[0]?.text() ?? '',
        stderr: outs[1]?.text() ?? '',
        extra: outs.slice(2).map((o) => o.text()),
        timedOut,
        aborted,
        durationMs: performance.now() - started,
      });
    });
  });
}
