// Builds the bubblewrap + prlimit command line every piece of untrusted work runs under (DESIGN 6.1).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { cgroupSupport } from './cgroup.js';

export interface SandboxLimits {
  /** CPU seconds over all threads (RLIMIT_CPU). */
  cpuSeconds: number;
  /** Address space in bytes (RLIMIT_AS); omitted for cuda, whose driver reserves huge virtual ranges. */
  addressSpace?: number;
  /** Processes and threads of the sandbox's user (RLIMIT_NPROC). */
  processes: number;
  /** Largest file it may write (RLIMIT_FSIZE). */
  fileSize: number;
  openFiles: number;
}

export interface SandboxSpec {
  /** Host directory mounted at /w; read-write only when `writable`. */
  workDir: string;
  writable: boolean;
  limits: SandboxLimits;
  /** Give the sandbox the GPU device nodes. */
  gpu?: boolean;
  /** Folders below workDir mounted read-write at /w/<folder> although /w is read-only (the trusted harness's
      progress folder): never one a worker sees. */
  writableFolders?: readonly string[];
  /** Size of the private /tmp (bytes). */
  tmpBytes?: number;
  /** Host folders outside /usr mounted read-only at the same path: the torch backend's interpreter and packages
      where they live elsewhere (a virtual environment, /opt; backends/torch/toolchain.ts `roots`). */
  roBinds?: readonly string[];
  /** An fd the launcher has open on a seccomp program (bwrap `--seccomp`). */
  seccompFd?: number;
  /**
   * Run the command as the sandbox's pid 1 (bwrap `--as-pid-1`) instead of under bwrap's own init. Every
   * sandbox that runs untrusted code does: bwrap's init runs under the same uid as the command, so the
   * command could write into it through /proc/1/mem, turn off its "die with parent" and keep it (and the
   * runner's pipes it holds) alive forever. As pid 1 the command is the only process in its pid namespace;
   * whoever kills it (the harness, by pidfd) ends the namespace. Needs a command that starts no children it
   * must reap (the worker cannot fork; the harness reaps its workers).
   */
  asPid1?: boolean;
}

/** The user name every sandboxed process sees in USER and LOGNAME. */
export const SANDBOX_USER = 'kforge';

/** Absolute paths: the harness starts workers with execve, which does not search PATH. */
function binaryPath(name: string): string {
  for (const dir of ['/usr/bin', '/bin', '/usr/local/bin', '/usr/sbin'])
    if (existsSync(`${dir}/${name}`)) return `${dir}/${name}`;
  return name;
}

let bwrapChecked: boolean | undefined;

/** Whether bubblewrap exists and can create its namespaces here (checked once per process). */
export function sandboxAvailable(): boolean {
  if (bwrapChecked !== undefined) return bwrapChecked;
  try {
    execFileSync(
      'bwrap',
      [
        '--unshare-all',
        '--die-with-parent',
        '--ro-bind',
        '/usr',
        '/usr',
        '--symlink',
        'usr/bin',
        '/bin',
        '--symlink',
        'usr/lib',
        '/lib',
        '--symlink',
        'usr/lib64',
        '/lib64',
        '/usr/bin/true',
      ],
      { stdio: 'ignore', timeout: 10_000 },
    );
    bwrapChecked = true;
  } catch {
    bwrapChecked = false;
  }
  return bwrapChecked;
}

/** A one-word description for the report (without bubblewrap, evaluate runs only when told it may: KFORGE_ALLOW_UNSANDBOXED). */
export function sandboxName(jobCgroup = true): string {
  return sandboxAvailable()
    ? `bubblewrap (no network, read-only /usr, private /tmp, rlimits, candidate as pid 1; ${cgroupSupport(jobCgroup).note})`
    : 'none (KFORGE_ALLOW_UNSANDBOXED=1)';
}

function gpuDevices(): string[] {
  try {
    return readdirSync('/dev')
      .filter((d) => /^nvidia/.test(d))
      .map((d) => `/dev/${d}`);
  } catch {
    return [];
  }
}

/** argv that runs `command` (paths inside the sandbox: the work dir is /w) under rlimits and bwrap. */
export function sandboxArgv(spec: SandboxSpec, command: readonly string[]): string[] {
  const l = spec.limits;
  const prlimit = [
    binaryPath('prlimit'),
    `--cpu=${l.cpuSeconds}`,
    `--nproc=${l.processes}`,
    `--fsize=${l.fileSize}`,
    `--nofile=${l.openFiles}`,
    '--core=0',
    ...(l.addressSpace ? [`--as=${l.addressSpace}`] : []),
    '--',
  ];
  if (!sandboxAvailable()) return [...prlimit, ...command];
  const args = [
    binaryPath('bwrap'),
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    ...(spec.asPid1 ? ['--as-pid-1'] : []),
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/usr',
    '/usr',
    '--symlink',
    'usr/bin',
    '/bin',
    '--symlink',
    'usr/lib',
    '/lib',
    '--symlink',
    'usr/lib64',
    '/lib64',
    '--symlink',
    'usr/sbin',
    '/sbin',
    ...(spec.roBinds ?? []).filter((p) => existsSync(p)).flatMap((p) => ['--ro-bind', p, p]),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(spec.tmpBytes ?? 64 << 20),
    '--tmpfs',
    '/tmp',
    // The few files of /etc a compiler or libc may read; never the whole of it.
    ...['/etc/alternatives', '/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/nsswitch.conf']
      .filter((p) => existsSync(p))
      .flatMap((p) => ['--ro-bind', p, p]),
    spec.writable ? '--bind' : '--ro-bind',
    spec.workDir,
    '/w',
    ...(spec.writableFolders ?? []).flatMap((f) => ['--bind', `${spec.workDir}/${f}`, `/w/${f}`]),
    '--chdir',
    '/w',
    ...(spec.gpu ? gpuDevices().flatMap((d) => ['--dev-bind', d, d]) : []),
    // Memory is the one thing a tmpfs lets a sandbox take beyond its address-space limit: bwrap's root and /dev
    // are tmpfs with no size, so writing files there could fill the host's memory. Root and /dev read-only (device
    // nodes such as /dev/null still work), POSIX shared memory in a small /dev/shm, scratch files in the sized /tmp.
    '--size',
    String(16 << 20),
    '--tmpfs',
    '/dev/shm',
    '--remount-ro',
    '/dev',
    '--remount-ro',
    '/',
    // A name for the sandbox's user: it has no /etc/passwd, so getpwuid() finds no entry for its uid, and Python's
    // getpass.getuser() (which PyTorch 2's Inductor and cache folders call, even on import of torch._dynamo) raises
    // KeyError unless one of these is set. Seen on an H200 with PyTorch 2.11: every pytorch problem after the first
    // failed to load. The harness passes its environment on to the workers it starts.
    '--setenv',
    'USER',
    SANDBOX_USER,
    '--setenv',
    'LOGNAME',
    SANDBOX_USER,
    ...(spec.seccompFd !== undefined ? ['--seccomp', String(spec.seccompFd)] : []),
  ];
  return [...prlimit, ...args, ...command];
}
