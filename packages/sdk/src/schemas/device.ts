// Devices a runner offers, with the peaks that roofline figures are measured against.
import { z } from 'zod';
import { Text } from './common.js';
import { Backend } from './problem.js';

/** How a runner measured its cpu peaks (older runners send none). */
export const PeakMeasurement = z.object({
  /** When the figures were last measured (ISO 8601). */
  measured_at: Text,
  /** Each figure is the best of this many short runs. */
  runs: z.number().int().positive(),
  /** The code path the tests ran: the ISA they were compiled for, e.g. `avx2-fma`, `avx512`, `neon-or-generic`. */
  code_path: Text,
  bandwidth_method: Text,
  flops_method: Text,
  /** 1-minute load average at the time: a busy machine understates its peaks. */
  load_average: z.number().nonnegative().optional(),
  /** Clock measured on all cores at once (a chain of dependent adds), GHz. */
  clock_ghz: z.number().nonnegative().optional(),
  /** The same run's other figures: a plain (write-allocate) triad, the non-temporal triad, a read-only sum, one core's FMA throughput. */
  triad_gbps: z.number().nonnegative().optional(),
  triad_nt_gbps: z.number().nonnegative().optional(),
  read_gbps: z.number().nonnegative().optional(),
  one_core_gflops: z.number().nonnegative().optional(),
  /** How many times the peaks were measured again (never lowered) since the runner started. */
  remeasurements: z.number().int().nonnegative().optional(),
  /** Whether the figures were measured on a quiet machine: other work kept fewer cores busy than the judge's noisy
      threshold over the run (this runner's own process and the peaks binary not counted). False: measured under load,
      so a result above them is flagged for review, never called implausible. Absent: an older runner. */
  quiet: z.boolean().optional(),
  /** Cores other work kept busy over the run that gave the figures (the quiet one, when there was one). */
  outside_busy_cores: z.number().nonnegative().optional(),
  /** How many runs it took to find the machine quiet (each after waiting for a quiet second, bounded). */
  tries: z.number().int().positive().optional(),
});
export type PeakMeasurement = z.infer<typeof PeakMeasurement>;

export const DevicePeaks = z.object({
  /** Memory bandwidth in GB/s (measured for cpu; from a table for GPUs). */
  bandwidth_gbps: z.number().nonnegative(),
  /** fp32 throughput in GFLOP/s. */
  fp32_gflops: z.number().nonnegative(),
  source: z.enum(['measured', 'table', 'unknown']),
  /** cpu: cores x clock x fp32 flops per cycle of the FMA units, and how that was worked out. */
  theoretical_fp32_gflops: z.number().nonnegative().optional(),
  theoretical_basis: Text.optional(),
  measurement: PeakMeasurement.optional(),
});
export type DevicePeaks = z.infer<typeof DevicePeaks>;

/** What a cpu offers kernels, read by the runner at start (older runners send none). */
export const CpuInfo = z.object({
  /** `x86_64`, `arm64`, ... */
  arch: Text,
  /** The widest vector ISA with FMA (or the widest): `avx512`, `avx2`, `avx`, `sse`, `neon`, `scalar`. */
  vector_isa: Text,
  /** ISA extensions: sse4.2, avx, avx2, fma, avx512f, avx512bw, ..., amx_tile; neon, sve, ... */
  isa: z.array(Text),
  /** fp32 vector width the compiler's -march=native uses, and how many vector registers there are. */
  vector_bits: z.number().int().positive(),
  vector_registers: z.number().int().positive(),
  physical_cores: z.number().int().positive().optional(),
  /** Caches one core sees, bytes (0 when unknown); `llc_shared_by` cpus share the last level. */
  caches: z
    .object({
      l1d_bytes: z.number().int().nonnegative(),
      l2_bytes: z.number().int().nonnegative(),
      l3_bytes: z.number().int().nonnegative(),
      llc_shared_by: z.number().int().positive().optional(),
      line_bytes: z.number().int().positive().optional(),
    })
    .optional(),
});
export type CpuInfo = z.infer<typeof CpuInfo>;

export const Device = z.object({
  /** e.g. `cpu-x86_64`, `cuda-H100`. */
  id: Text,
  kind: Backend,
  name: Text,
  cores: z.number().int().optional(),
  memory_mb: z.number().optional(),
  peaks: DevicePeaks,
  available: z.boolean(),
  /** How many runners currently serve this device. */
  runners: z.number().int().nonnegative().default(0),
  languages: z.array(Text).default([]),
  /** cpu devices: ISA, vector registers and caches. */
  cpu: CpuInfo.optional(),
  /** Versions of the runner's toolchains on this device: `python`, `torch`, `cxx`, `cuda`, `triton` (absent: none). */
  toolchains: z.record(Text.max(40), Text.max(300)).optional(),
  /** Problem kinds this device cannot run, with why (e.g. `{kind: 'pytorch', reason: 'no PyTorch'}`). */
  unavailable: z
    .array(z.object({ kind: Text.max(40), reason: Text.max(1000) }))
    .max(16)
    .optional(),
});
export type Device = z.infer<typeof Device>;
