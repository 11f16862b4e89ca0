// A seccomp filter for the worker: no new processes. Threads (clone with CLONE_THREAD) are fine; fork, vfork,
// and clone without CLONE_THREAD fail with EPERM; clone3 fails with ENOSYS so glibc falls back to clone.
//
// Why: RLIMIT_AS bounds one process's memory, and RLIMIT_NPROC only the number of processes, so a candidate
// that forked 60 children each holding 4 GiB could take the host's memory. With no new processes the worker's
// memory is one address-space limit (plus the sized tmpfs mounts). The compile sandbox has no filter (the
// compiler driver runs cc1, as and ld). x86_64 only: elsewhere no filter is written and the limit is the
// rlimits alone (docs/evaluation.md).

const AUDIT_ARCH_X86_64 = 0xc000003e;
const NR = { clone: 56, fork: 57, vfork: 58, clone3: 435 } as const;
const X32_SYSCALL_BIT = 0x40000000;
const CLONE_THREAD = 0x00010000;
const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;

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

type Insn = [code: number, jt: number, jf: number, k: number];

/** The filter as the raw `struct sock_filter` array bwrap's `--seccomp FD` reads; null off x86_64. */
export function noNewProcessesFilter(arch: string = process.arch): Buffer | null {
  if (arch !== 'x64') return null;
  // Jump offsets count from the next instruction. Labels: 11 allow, 12 EPERM, 13 ENOSYS.
  const program: Insn[] = [
    /* 0 */ [LD_W_ABS, 0, 0, OFF_ARCH],
    /* 1 */ [JEQ_K, 1, 0, AUDIT_ARCH_X86_64],
    /* 2 */ [RET_K, 0, 0, RET_KILL_PROCESS],
    /* 3 */ [LD_W_ABS, 0, 0, OFF_NR],
    /* 4 */ [JGE_K, 8, 0, X32_SYSCALL_BIT], // x32 ABI: ENOSYS
    /* 5 */ [JEQ_K, 6, 0, NR.fork], // EPERM
    /* 6 */ [JEQ_K, 5, 0, NR.vfork], // EPERM
    /* 7 */ [JEQ_K, 5, 0, NR.clone3], // ENOSYS
    /* 8 */ [JEQ_K, 0, 2, NR.clone], // clone: look at its flags; anything else: allow
    /* 9 */ [LD_W_ABS, 0, 0, OFF_ARG0_LO],
    /* 10 */ [JSET_K, 0, 1, CLONE_THREAD], // a thread: allow; a process: EPERM
    /* 11 */ [RET_K, 0, 0, RET_ALLOW],
    /* 12 */ [RET_K, 0, 0, RET_ERRNO | EPERM],
    /* 13 */ [RET_K, 0, 0, RET_ERRNO | ENOSYS],
  ];
  const out = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}
