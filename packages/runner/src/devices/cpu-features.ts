// What the cpu offers a kernel, read at run time: ISA features (/proc/cpuinfo), vector width and register count,
// caches and SMT (sysfs). Nothing here is assumed from the machine the code was written on.
import { readFileSync } from 'node:fs';
import { arch as nodeArch, availableParallelism } from 'node:os';
import { join } from 'node:path';

export interface CpuCaches {
  /** Per-core level-1 data cache, bytes (0 when unknown). */
  l1d_bytes: number;
  /** Level-2 cache one core sees, bytes. */
  l2_bytes: number;
  /** Last level (L3 where there is one) one core sees, bytes; `llc_shared_by` cpus share it. */
  l3_bytes: number;
  llc_shared_by: number;
  line_bytes: number;
}

export interface CpuFeatures {
  /** `x86_64`, `arm64`, or what Node calls the architecture. */
  arch: string;
  vendor: string;
  /** e.g. `23/1` (family/model, x86) or `0x41/0xd0c` (implementer/part, arm64), '' when unknown. */
  family_model: string;
  /** The ISA extensions kernels care about, in a fixed order: sse4.2 avx avx2 fma avx512f ... neon sve. */
  isa: string[];
  /** The widest vector ISA that has FMA (or the widest at all): `avx512`, `avx2`, `avx`, `sse`, `neon`, `sve`, `scalar`. */
  vector_isa: string;
  /** Widest fp32 vector the compiler's -march=native uses, in bits, and how many such registers there are. */
  vector_bits: number;
  vector_registers: number;
  /** Logical cpus this process may use and the physical cores under them (SMT siblings share FMA units). */
  logical_cpus: number;
  physical_cores: number;
  caches: CpuCaches;
  /** Nominal or maximum clock from cpufreq / cpuinfo, GHz (0 when unknown); the peaks test measures the real one. */
  listed_clock_ghz: number;
}

/** x86 flags worth reporting, in the order they are shown. */
const X86_FLAGS: readonly [string, string][] = [
  ['sse4_2', 'sse4.2'],
  ['avx', 'avx'],
  ['avx2', 'avx2'],
  ['fma', 'fma'],
  ['f16c', 'f16c'],
  ['avx512f', 'avx512f'],
  ['avx512dq', 'avx512dq'],
  ['avx512cd', 'avx512cd'],
  ['avx512bw', 'avx512bw'],
  ['avx512vl', 'avx512vl'],
  ['avx512ifma', 'avx512ifma'],
  ['avx512vbmi', 'avx512vbmi'],
  ['avx512_vnni', 'avx512_vnni'],
  ['avx512_bf16', 'avx512_bf16'],
  ['avx512_fp16', 'avx512_fp16'],
  ['avx_vnni', 'avx_vnni'],
  ['amx_tile', 'amx_tile'],
  ['amx_bf16', 'amx_bf16'],
  ['amx_int8', 'amx_int8'],
];

/** arm64 `Features` words worth reporting. */
const ARM_FLAGS: readonly [string, string][] = [
  ['asimd', 'neon'],
  ['asimdhp', 'neon_fp16'],
  ['asimddp', 'neon_dotprod'],
  ['bf16', 'bf16'],
  ['i8mm', 'i8mm'],
  ['sve', 'sve'],
  ['sve2', 'sve2'],
  ['sme', 'sme'],
];

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function field(cpuinfo: string, name: string): string {
  return new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(cpuinfo)?.[1]?.trim() ?? '';
}

/** Size strings from sysfs (`32K`, `1024K`, `32M`) in bytes. */
export function parseCacheSize(text: string): number {
  const t = text.trim();
  const n = Number.parseInt(t, 10);
  if (!Number.isFinite(n) || n <= 0) return 0;
  return n * (t.endsWith('M') ? 2 ** 20 : t.endsWith('K') ? 1024 : t.endsWith('G') ? 2 ** 30 : 1);
}

/** Number of cpus in a sysfs list such as `0-1,4,6-7`. */
export function cpuListSize(list: string): number {
  let n = 0;
  for (const part of list.trim().split(',')) {
    if (!part) continue;
    const [a, b] = part.split('-').map((x) => Number.parseInt(x, 10));
    if (a === undefined || !Number.isFinite(a)) continue;
    n += b !== undefined && Number.isFinite(b) ? b - a + 1 : 1;
  }
  return n;
}

/** The caches cpu0 sees, from `/sys/devices/system/cpu/cpu0/cache/index*`. */
export function readCaches(root = '/sys/devices/system/cpu/cpu0/cache'): CpuCaches {
  const out: CpuCaches = { l1d_bytes: 0, l2_bytes: 0, l3_bytes: 0, llc_shared_by: 1, line_bytes: 64 };
  let llcLevel = 0;
  for (let i = 0; i < 16; i++) {
    const dir = join(root, `index${i}`);
    const level = Number.parseInt(read(join(dir, 'level')), 10);
    if (!Number.isFinite(level)) break;
    const type = read(join(dir, 'type')).trim();
    const bytes = parseCacheSize(read(join(dir, 'size')));
    if (type === 'Instruction' || bytes === 0) continue;
    const line = Number.parseInt(read(join(dir, 'coherency_line_size')), 10);
    if (level === 1 && Number.isFinite(line) && line > 0) out.line_bytes = line;
    if (level === 1) out.l1d_bytes = bytes;
    else if (level === 2) out.l2_bytes = bytes;
    else out.l3_bytes = Math.max(out.l3_bytes, bytes);
    if (level >= llcLevel) {
      llcLevel = level;
      out.llc_shared_by = Math.max(1, cpuListSize(read(join(dir, 'shared_cpu_list'))));
    }
  }
  return out;
}

/** ISA facts from the text of /proc/cpuinfo (exported for tests with other machines' cpuinfo). */
export function isaFromCpuinfo(
  cpuinfo: string,
  arch: string,
): Pick<CpuFeatures, 'isa' | 'vector_isa' | 'vector_bits' | 'vector_registers' | 'vendor' | 'family_model'> {
  if (arch === 'arm64' || arch === 'aarch64') {
    const words = new Set(field(cpuinfo, 'Features').split(/\s+/));
    const isa = ARM_FLAGS.filter(([w]) => words.has(w)).map(([, name]) => name);
    // Every arm64 cpu has Advanced SIMD (128-bit, 32 registers); SVE's length is the hardware's, but the compiler
    // at -march=native still vectorises fixed-width code with NEON unless told a length, so 128 is what kernels get.
    if (!isa.includes('neon')) isa.unshift('neon');
    return {
      isa,
      vector_isa: 'neon',
      vector_bits: 128,
      vector_registers: 32,
      vendor: field(cpuinfo, 'CPU implementer'),
      family_model: [field(cpuinfo, 'CPU implementer'), field(cpuinfo, 'CPU part')].filter(Boolean).join('/'),
    };
  }
  if (arch !== 'x64' && arch !== 'x86_64') {
    return { isa: [], vector_isa: 'scalar', vector_bits: 32, vector_registers: 16, vendor: '', family_model: '' };
  }
  const flags = new Set(field(cpuinfo, 'flags').split(/\s+/));
  const isa = X86_FLAGS.filter(([f]) => flags.has(f)).map(([, name]) => name);
  const has = (f: string) => flags.has(f);
  const vector_isa = has('avx512f') ? 'avx512' : has('avx2') && has('fma') ? 'avx2' : has('avx') ? 'avx' : 'sse';
  const family = field(cpuinfo, 'cpu family');
  const model = field(cpuinfo, 'model');
  return {
    isa,
    vector_isa,
    vector_bits: vector_isa === 'avx512' ? 512 : vector_isa === 'sse' ? 128 : 256,
    vector_registers: vector_isa === 'avx512' ? 32 : 16,
    vendor: field(cpuinfo, 'vendor_id'),
    family_model: family && model ? `${family}/${model}` : '',
  };
}

/** The raw facts about a machine that its features are computed from: read from /proc and sysfs by
    readMachineFacts, or written out by a test that describes another machine (no test reads this one's). */
export interface MachineFacts {
  /** The text of /proc/cpuinfo. */
  cpuinfo: string;
  /** What Node calls the architecture (`x64`, `arm64`). */
  arch: string;
  /** Logical cpus this process may use. */
  logical_cpus: number;
  /** Hardware threads per physical core (cpu0's thread siblings; 1 when unknown). */
  smt_threads: number;
  /** cpufreq's maximum clock in kHz (0 when there is no cpufreq; cpuinfo's `cpu MHz` is used then). */
  cpufreq_max_khz: number;
  caches: CpuCaches;
}

/** This machine's facts, or those of a copy of /proc and sysfs laid out under `root` (the logical cpu count is
    the process's affinity, so it is passed in with any other root). */
export function readMachineFacts(root = '/', logicalCpus = availableParallelism()): MachineFacts {
  const cpu = join(root, 'sys/devices/system/cpu/cpu0');
  return {
    cpuinfo: read(join(root, 'proc/cpuinfo')),
    arch: nodeArch(),
    logical_cpus: logicalCpus,
    // SMT siblings share one core's FMA units: count them from cpu0's siblings (1 when sysfs does not say).
    smt_threads: Math.max(1, cpuListSize(read(join(cpu, 'topology/thread_siblings_list'))) || 1),
    cpufreq_max_khz: Number.parseInt(read(join(cpu, 'cpufreq/cpuinfo_max_freq')), 10) || 0,
    caches: readCaches(join(cpu, 'cache')),
  };
}

function listedClockGhz(m: MachineFacts): number {
  if (Number.isFinite(m.cpufreq_max_khz) && m.cpufreq_max_khz > 0) return m.cpufreq_max_khz / 1e6;
  const mhz = Number.parseFloat(field(m.cpuinfo, 'cpu MHz'));
  return Number.isFinite(mhz) && mhz > 0 ? mhz / 1000 : 0;
}

/** The features of the machine the facts describe. */
export function featuresFromFacts(m: MachineFacts): CpuFeatures {
  return {
    arch: m.arch === 'x64' ? 'x86_64' : m.arch,
    ...isaFromCpuinfo(m.cpuinfo, m.arch),
    logical_cpus: m.logical_cpus,
    physical_cores: Math.max(1, Math.round(m.logical_cpus / Math.max(1, m.smt_threads))),
    caches: m.caches,
    listed_clock_ghz: listedClockGhz(m),
  };
}

let cached: CpuFeatures | undefined;

/** This machine's features, read once per process. */
export function cpuFeatures(): CpuFeatures {
  cached ??= featuresFromFacts(readMachineFacts());
  return cached;
}

/**
 * fp32 flops one core can start per cycle: 2 (an FMA) x FMA pipes x fp32 lanes of its datapath. Two FMA pipes on
 * every x86-64 core with FMA and every recent arm64 core; the datapath is narrower than the registers on a few
 * designs, which split each wide operation in two: AMD Zen and Zen+ (family 23, models below 0x30: 256-bit ops on
 * 128-bit units) and AMD Zen 4 (family 25: 512-bit ops on 256-bit units). Unknown designs get the full width; the
 * measured figure sits beside it, so a wrong guess shows.
 */
export function theoreticalFlopsPerCycle(
  f: Pick<CpuFeatures, 'vector_isa' | 'vector_bits' | 'vendor' | 'family_model'>,
): {
  flops: number;
  pipes: number;
  lanes: number;
  fma: boolean;
} {
  const [family, model] = f.family_model.split('/').map((x) => Number.parseInt(x, 10));
  let bits = f.vector_bits;
  if (f.vendor === 'AuthenticAMD' && family === 23 && model !== undefined && model < 0x30) bits = Math.min(bits, 128);
  if (f.vendor === 'AuthenticAMD' && family === 25) bits = Math.min(bits, 256);
  const fma = f.vector_isa === 'avx512' || f.vector_isa === 'avx2' || f.vector_isa === 'neon' || f.vector_isa === 'sve';
  const lanes = Math.max(1, bits / 32);
  const pipes = 2;
  // Without FMA: one multiply and one add pipe, one flop each per lane.
  return { flops: fma ? 2 * pipes * lanes : pipes * lanes, pipes, lanes, fma };
}
