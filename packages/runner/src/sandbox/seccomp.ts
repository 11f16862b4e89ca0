// The worker's seccomp filter (bwrap `--seccomp FD` reads it as a raw `struct sock_filter` array).
//
// 1. No new processes. Threads (clone with CLONE_THREAD) are fine; fork, vfork and clone without CLONE_THREAD
//    fail with EPERM; clone3 fails with ENOSYS so glibc falls back to clone for its threads. RLIMIT_AS bounds
//    one process's memory and RLIMIT_NPROC only the number of processes, so a candidate that forked 60 children
//    each holding 4 GiB could take the host's memory; with one process the worker's memory is one address-space
//    limit (plus the sized tmpfs mounts).
// 2. Defence in depth: system calls no kernel needs and that widen the host kernel's attack surface or reach
//    other processes (io_uring, userfaultfd, bpf, perf events, ptrace, keyrings, namespaces, mounts, modules,
//    kexec, cross-process memory) fail with EPERM. bwrap's namespaces and dropped capabilities already stop
//    most of them from doing harm.
// 3. Only the x86_64 ABI: i386 (int 0x80) calls kill the process, x32 calls fail with ENOSYS.
//
// The compile sandbox has no filter (the compiler driver runs cc1, as and ld). x86_64 only: elsewhere no filter
// is written and the limits are the rlimits alone (docs/evaluation.md).

const AUDIT_ARCH_X86_64 = 0xc000003e;
const X32_SYSCALL_BIT = 0x40000000;
const CLONE_THREAD = 0x00010000;
const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;

/** x86_64 system call numbers. */
const NR = {
  clone: 56,
  fork: 57,
  vfork: 58,
  clone3: 435,
} as const;

/** Denied with EPERM (x86_64 numbers). */
export const DENIED_SYSCALLS: Readonly<Record<string, number>> = {
  ptrace: 101,
  pivot_root: 155,
  mount: 165,
  umount2: 166,
  init_module: 175,
  delete_module: 176,
  kexec_load: 246,
  add_key: 248,
  request_key: 249,
  keyctl: 250,
  unshare: 272,
  perf_event_open: 298,
  setns: 308,
  process_vm_readv: 310,
  process_vm_writev: 311,
  finit_module: 313,
  bpf: 321,
  userfaultfd: 323,
  kexec_file_load: 320,
  io_uring_setup: 425,
  io_uring_enter: 426,
  io_uring_register: 427,
  open_tree: 428,
  move_mount: 429,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
};

// Classic BPF opcodes.
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

// Offsets into struct seccomp_data: nr (u32), arch (u32), instruction_pointer (u64), args[6] (u64 each).
const OFF_NR = 0;
const OFF_ARCH = 4;
const OFF_ARG0_LO = 16;

type Target = string | 0;
type Op = { label: string } | { code: number; k: number; jt?: Target; jf?: Target };

/** Resolves label jumps (forward only, as BPF requires) into the 8-byte instructions. */
function assemble(ops: Op[]): Buffer {
  const insns = ops.filter((o): o is Exclude<Op, { label: string }> => !('label' in o));
  const at = new Map<string, number>();
  let pc = 0;
  for (const o of ops) {
    if ('label' in o) at.set(o.label, pc);
    else pc++;
  }
  const out = Buffer.alloc(insns.length * 8);
  insns.forEach((o, i) => {
    const jump = (t: Target | undefined) => {
      if (t === undefined || t === 0) return 0;
      const target = at.get(t);
      if (target === undefined || target <= i) throw new Error(`seccomp: bad jump to ${t}`);
      const off = target - (i + 1);
      if (off > 255) throw new Error(`seccomp: jump to ${t} too far`);
      return off;
    };
    out.writeUInt16LE(o.code, i * 8);
    out.writeUInt8(jump(o.jt), i * 8 + 2);
    out.writeUInt8(jump(o.jf), i * 8 + 3);
    out.writeUInt32LE(o.k >>> 0, i * 8 + 4);
  });
  return out;
}

/** The filter for `bwrap --seccomp`; null off x86_64. */
export function workerFilter(arch: string = process.arch): Buffer | null {
  if (arch !== 'x64') return null;
  return assemble([
    { code: LD_W_ABS, k: OFF_ARCH },
    { code: JEQ_K, k: AUDIT_ARCH_X86_64, jt: 'native', jf: 'kill' },
    { label: 'native' },
    { code: LD_W_ABS, k: OFF_NR },
    { code: JGE_K, k: X32_SYSCALL_BIT, jt: 'enosys' },
    { code: JEQ_K, k: NR.fork, jt: 'eperm' },
    { code: JEQ_K, k: NR.vfork, jt: 'eperm' },
    { code: JEQ_K, k: NR.clone3, jt: 'enosys' },
    ...Object.values(DENIED_SYSCALLS).map((nr): Op => ({ code: JEQ_K, k: nr, jt: 'eperm' })),
    { code: JEQ_K, k: NR.clone, jt: 'clone', jf: 'allow' },
    { label: 'clone' },
    { code: LD_W_ABS, k: OFF_ARG0_LO },
    { code: JSET_K, k: CLONE_THREAD, jt: 'allow', jf: 'eperm' },
    { label: 'allow' },
    { code: RET_K, k: RET_ALLOW },
    { label: 'eperm' },
    { code: RET_K, k: RET_ERRNO | EPERM },
    { label: 'enosys' },
    { code: RET_K, k: RET_ERRNO | ENOSYS },
    { label: 'kill' },
    { code: RET_K, k: RET_KILL_PROCESS },
  ]);
}
