// Devices a runner offers, with the peaks that roofline figures are measured against.
import { z } from 'zod';
import { Text } from './common.js';
import { Backend } from './problem.js';

export const DevicePeaks = z.object({
  /** Memory bandwidth in GB/s (measured for cpu; from a table for GPUs). */
  bandwidth_gbps: z.number().nonnegative(),
  /** fp32 throughput in GFLOP/s. */
  fp32_gflops: z.number().nonnegative(),
  source: z.enum(['measured', 'table', 'unknown']),
});
export type DevicePeaks = z.infer<typeof DevicePeaks>;

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
});
export type Device = z.infer<typeof Device>;
