// Each evaluation runs in a cgroup of its own: memory, process and cpu limits over everything it starts, and
// one operation that ends every process in it, whatever the processes did to their own sessions, groups,
// namespaces or "die with parent" settings (DESIGN 6.1; docs/evaluation.md, "A job's processes").
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

export interface CgroupLimits {
  /** Memory of every process in the job together, page cache and tmpfs pages included (bytes). */
  memoryBytes: number;
  /** Processes and threads in the job together. */
  pids: number;
  /** Cpu bandwidth in cores (a quota, not a pin: the scheduler still spreads threads over every core). */
  cpus: number;
}

type Controller = 'memory' | 'pids' | 'cpu';

interface Hierarchy {
  /** The folder job cgroups are made in. */
  base: string;
  version: 1 | 2;
  /** The limits this hierarchy applies. */
  controllers: Controller[];
}

interface Support {
  /** Where job cgroups go: the v2 hierarchy (when there is one) first; it can kill a whole cgroup at once. */
  hierarchies: Hierarchy[];
  /** Why there are none, or why some limits are missing; shown in the sandbox's description. */
  note: string;
}

const PREFIX = 'kf-';
let support: Support | undefined;

function tryWrite(path: string, value: string): boolean {
  try {
    writeFileSync(path, value);
    return true;
  } catch {
    return false;
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function v2Root(): string | undefined {
  if (existsSync('/sys/fs/cgroup/cgroup.controllers')) return '/sys/fs/cgroup';
  if (existsSync('/sys/fs/cgroup/unified/cgroup.controllers')) return '/sys/fs/cgroup/unified';
  return undefined;
}

/** This process's own cgroup in the v2 hierarchy ("0::/path" in /proc/self/cgroup). */
function ownV2Path(): string {
  const line = readText('/proc/self/cgroup')
    .split('\n')
    .find((l) => l.startsWith('0::'));
  return line ? line.slice(3).trim() || '/' : '/';
}

/** What a runner told not to make job cgroups (KFORGE_JOB_CGROUP=0, read at its entry point) has. */
const TURNED_OFF: Support = {
  hierarchies: [],
  note: 'no job cgroup (KFORGE_JOB_CGROUP=0): process-group and pid-namespace kills only',
};

function detect(): Support {
  if (process.platform !== 'linux') return { hierarchies: [], note: 'no cgroups (not Linux)' };
  if (process.getuid?.() !== 0)
    return {
      hierarchies: [],
      note: 'no job cgroup (the runner is not root): process-group and pid-namespace kills only',
    };
  const hierarchies: Hierarchy[] = [];
  const missing = new Set<Controller>(['memory', 'pids', 'cpu']);
  const root = v2Root();
  if (root) {
    const own = join(root, ownV2Path());
    const base = join(own, 'kforge-jobs');
    try {
      mkdirSync(base, { recursive: true });
      // Limits need the controllers enabled on the way down. The runner's own cgroup can enable them for its
      // children only when it holds no processes itself (cgroup v2's rule), i.e. under a delegated cgroup.
      const available = readText(join(own, 'cgroup.controllers')).split(/\s+/).filter(Boolean);
      const controllers: Controller[] = [];
      for (const c of ['memory', 'pids', 'cpu'] as const) {
        if (!available.includes(c)) continue;
        tryWrite(join(own, 'cgroup.subtree_control'), `+${c}`);
        if (
          readText(join(own, 'cgroup.subtree_control')).includes(c) &&
          tryWrite(join(base, 'cgroup.subtree_control'), `+${c}`)
        ) {
          controllers.push(c);
          missing.delete(c);
        }
      }
      if (existsSync(join(base, 'cgroup.kill')) || controllers.length > 0)
        hierarchies.push({ base, version: 2, controllers });
    } catch {
      /* not writable here: try v1 below */
    }
  }
  for (const c of [...missing]) {
    const mount = `/sys/fs/cgroup/${c}`;
    if (!existsSync(join(mount, 'tasks'))) continue; // not a v1 hierarchy
    const base = join(mount, 'kforge-jobs');
    try {
      mkdirSync(base, { recursive: true });
      hierarchies.push({ base, version: 1, controllers: [c] });
      missing.delete(c);
    } catch {
      /* not writable */
    }
  }
  if (hierarchies.length === 0)
    return { hierarchies, note: 'no writable cgroup hierarchy: process-group and pid-namespace kills only' };
  const v = hierarchies.some((h) => h.version === 2)
    ? hierarchies.some((h) => h.version === 1)
      ? 'v2 + v1'
      : 'v2'
    : 'v1';
  const limited = (['memory', 'pids', 'cpu'] as const).filter((c) => !missing.has(c));
  return {
    hierarchies,
    note: `cgroup ${v} per job (${limited.length ? `limits: ${limited.join(', ')}` : 'no limits'}${missing.size ? `; no ${[...missing].join(', ')} controller` : ''})`,
  };
}

/** The job cgroups this machine offers; none when `enabled` is false (the runner's `jobCgroup` setting). */
export function cgroupSupport(enabled = true): Support {
  if (!enabled) return TURNED_OFF;
  support ??= detect();
  return support;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function procsOf(dir: string): number[] {
  return readText(join(dir, 'cgroup.procs'))
    .split('\n')
    .map(Number)
    .filter((n) => n > 0);
}

async function killDir(dir: string, version: 1 | 2): Promise<void> {
  if (version === 2 && existsSync(join(dir, 'cgroup.kill'))) tryWrite(join(dir, 'cgroup.kill'), '1');
  for (let i = 0; i < 200; i++) {
    const pids = procsOf(dir);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function removeDir(dir: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      rmdirSync(dir);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      await new Promise((r) => setTimeout(r, 20)); // killed processes not yet reaped
    }
  }
}

/** One evaluation's cgroup (in each hierarchy the machine offers). */
export class JobCgroup {
  private constructor(
    readonly dirs: { dir: string; version: 1 | 2 }[],
    readonly description: string,
  ) {}

  /** A new cgroup with these limits, or null where the runner cannot make one (not root, no cgroupfs) or was told
      not to (`enabled` false: the runner's `jobCgroup` setting). */
  static create(limits: CgroupLimits, enabled = true): JobCgroup | null {
    const s = cgroupSupport(enabled);
    if (s.hierarchies.length === 0) return null;
    sweepStale();
    startJanitor(s.hierarchies);
    const name = `${PREFIX}${process.pid}-${randomUUID().slice(0, 8)}`;
    const dirs: { dir: string; version: 1 | 2 }[] = [];
    for (const h of s.hierarchies) {
      const dir = join(h.base, name);
      try {
        mkdirSync(dir);
      } catch {
        continue;
      }
      dirs.push({ dir, version: h.version });
      for (const c of h.controllers) applyLimit(dir, h.version, c, limits);
    }
    return dirs.length ? new JobCgroup(dirs, s.note) : null;
  }

  /**
   * argv that joins this cgroup and then runs `argv`, as `uid` when given (the runner is root here): a shell
   * writes its own pid into each cgroup.procs before exec, so the command and everything it starts are in
   * the cgroup from their first instruction (moving a pid in from outside would race its first fork).
   */
  wrap(argv: readonly string[], uid?: number): string[] {
    const script =
      'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done; exec "$@"';
    const drop =
      uid !== undefined ? ['/usr/bin/setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--'] : [];
    return [
      '/bin/sh',
      '-c',
      script,
      'kf-join',
      String(this.dirs.length),
      ...this.dirs.map((d) => join(d.dir, 'cgroup.procs')),
      ...drop,
      ...argv,
    ];
  }

  /** Ends every process in the cgroup and waits until it is empty. */
  async killAll(): Promise<void> {
    await Promise.all(this.dirs.map((d) => killDir(d.dir, d.version)));
  }

  /** Kills what is left and removes the cgroup. */
  async remove(): Promise<void> {
    await this.killAll();
    await Promise.all(this.dirs.map((d) => removeDir(d.dir)));
  }

  /** Whether any process is still in it (tests). */
  empty(): boolean {
    return this.dirs.every((d) => procsOf(d.dir).length === 0);
  }
}

function applyLimit(dir: string, version: 1 | 2, c: Controller, l: CgroupLimits): void {
  const period = 100_000;
  const quota = Math.max(1, Math.round(l.cpus * period));
  if (version === 2) {
    if (c === 'memory') {
      tryWrite(join(dir, 'memory.max'), String(l.memoryBytes));
      tryWrite(join(dir, 'memory.swap.max'), '0');
    } else if (c === 'pids') tryWrite(join(dir, 'pids.max'), String(l.pids));
    else tryWrite(join(dir, 'cpu.max'), `${quota} ${period}`);
    return;
  }
  if (c === 'memory') {
    tryWrite(join(dir, 'memory.limit_in_bytes'), String(l.memoryBytes));
    tryWrite(join(dir, 'memory.memsw.limit_in_bytes'), String(l.memoryBytes));
  } else if (c === 'pids') tryWrite(join(dir, 'pids.max'), String(l.pids));
  else {
    tryWrite(join(dir, 'cpu.cfs_period_us'), String(period));
    tryWrite(join(dir, 'cpu.cfs_quota_us'), String(quota));
  }
}

let swept = false;

/**
 * Job cgroups left by a runner that is gone (killed mid-job, or the machine's server restarted): their
 * processes are killed and the cgroups removed, once per process. Another live runner's cgroups are kept.
 */
export function sweepStale(): void {
  if (swept) return;
  swept = true;
  for (const h of cgroupSupport().hierarchies) {
    let names: string[] = [];
    try {
      names = readdirSync(h.base).filter((n) => n.startsWith(PREFIX));
    } catch {
      continue;
    }
    for (const n of names) {
      const owner = Number(n.slice(PREFIX.length).split('-')[0]);
      if (owner > 0 && owner !== process.pid && pidAlive(owner)) continue;
      const dir = join(h.base, n);
      void killDir(dir, h.version).then(() => removeDir(dir));
    }
  }
}

let janitor = false;

/**
 * A small watcher, once per process, that outlives a runner killed outright (kill -9, OOM): it waits for the end of
 * a pipe only this process holds, then kills whatever is left in this process's job cgroups and removes them. (The
 * harness itself dies with the runner, c/harness_main.c's parent-death signal; its workers die with it, bwrap's
 * --die-with-parent; this also catches what escaped both.) A clean exit closes the pipe too: it then finds nothing.
 */
function startJanitor(hierarchies: readonly Hierarchy[]): void {
  if (janitor) return;
  janitor = true;
  const script = [
    'cat >/dev/null',
    'pid=$1; shift',
    'for base in "$@"; do for d in "$base"/kf-"$pid"-*; do',
    '  [ -d "$d" ] || continue',
    '  [ -e "$d/cgroup.kill" ] && echo 1 > "$d/cgroup.kill" 2>/dev/null',
    '  i=0; while [ $i -lt 200 ]; do',
    '    for p in $(cat "$d/cgroup.procs" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done',
    '    rmdir "$d" 2>/dev/null && break',
    '    sleep 0.05; i=$((i+1))',
    '  done',
    'done; done',
  ].join('\n');
  try {
    const child = spawn(
      '/bin/sh',
      ['-c', script, 'kf-cgroup-janitor', String(process.pid), ...hierarchies.map((h) => h.base)],
      { detached: true, stdio: ['pipe', 'ignore', 'ignore'] },
    );
    child.on('error', () => {});
    child.stdin?.on('error', () => {});
    // Neither the child nor the pipe keeps this process alive; the pipe closes when it exits, however it exits.
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    child.unref();
  } catch {
    /* no janitor: the next runner's sweepStale removes what this one leaves */
  }
}

/** The cpu quota a job gets: every core of the machine (it bounds, it never slows a timed call). */
export function defaultJobCpus(): number {
  return availableParallelism();
}
