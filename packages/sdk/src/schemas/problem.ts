// Problems: reference computations with a fixed C ABI (DESIGN section 5). Hidden ranked sizes never appear here.
import { z } from 'zod';
import { Text } from './common.js';

export const ArgType = z.enum(['f32*', 'f64*', 'i32*', 'i64*', 'f32', 'f64', 'i32', 'i64']);
export type ArgType = z.infer<typeof ArgType>;

/** in: read-only input; out: written output; inout: both; size: a dimension (i64); scalar: a fixed parameter. */
export const ArgRole = z.enum(['in', 'out', 'inout', 'size', 'scalar']);
export type ArgRole = z.infer<typeof ArgRole>;

export const SignatureArg = z.object({
  name: Text.min(1).max(100),
  type: ArgType,
  role: ArgRole,
  /** Shape of a pointer argument as symbols or expressions of the size arguments, e.g. ["n"] or ["rows", "cols"]. */
  shape: z.array(Text.max(200)).max(8).optional(),
});
export type SignatureArg = z.infer<typeof SignatureArg>;

/** Values of the size (and scalar) arguments for one case, e.g. {n: 1000}. */
export const CaseSizes = z.record(Text.max(100), z.number());
export type CaseSizes = z.infer<typeof CaseSizes>;

export const ProblemCase = z.object({ name: Text.max(200), sizes: CaseSizes });
export type ProblemCase = z.infer<typeof ProblemCase>;

export const Tolerance = z.object({ atol: z.number().nonnegative(), rtol: z.number().nonnegative() });
export type Tolerance = z.infer<typeof Tolerance>;

/** Cost formulas: arithmetic expressions over the size arguments. */
export const CostFormulas = z.object({ flops: Text.max(1000), bytes: Text.max(1000) });
export type CostFormulas = z.infer<typeof CostFormulas>;

/** `pytorch`: a Python file defining `class ModelNew(nn.Module)` (KernelBench format), for `pytorch` problems only. */
export const Language = z.enum(['c', 'cpp', 'cuda', 'pytorch']);
export type Language = z.infer<typeof Language>;

export const Backend = z.enum(['cpu', 'cuda']);
export type Backend = z.infer<typeof Backend>;

export const InputDistribution = z.enum(['uniform', 'normal', 'positive', 'small_int']);
export type InputDistribution = z.infer<typeof InputDistribution>;

/** `c`: a C-ABI problem (problem.json + reference.c); `pytorch`: a KernelBench-format Python file. */
export const ProblemKind = z.enum(['c', 'pytorch']);
export type ProblemKind = z.infer<typeof ProblemKind>;

/** One value a pytorch problem's get_inputs() / get_init_inputs() / forward returns, as the inspector saw it. */
export const TorchValue = z.object({
  /** `tensor`, or the Python type of a plain value (`int`, `float`, `bool`, `tuple`, ...). */
  type: Text.max(40),
  shape: z.array(z.number().int().nonnegative()).max(16).optional(),
  /** e.g. `float32`, `int64`. */
  dtype: Text.max(40).optional(),
  /** A plain value as Python writes it (`repr`, cut at 200 characters). */
  repr: Text.max(1000).optional(),
});
export type TorchValue = z.infer<typeof TorchValue>;

/** A pytorch problem at one set of sizes: the module's integer constants and what they give. */
export const TorchCase = z.object({
  name: Text.max(200),
  /** Every module-level integer constant at this case (scaled ones and the rest). */
  constants: z.record(Text.max(100), z.number()),
  inputs: z.array(TorchValue).max(64),
  init_inputs: z.array(TorchValue).max(64),
  outputs: z.array(TorchValue).max(64).default([]),
  /** Bytes of the inputs, outputs and parameters at these sizes. */
  bytes: z.number().nonnegative(),
});
export type TorchCase = z.infer<typeof TorchCase>;

/** A pytorch problem's sizes on one kind of device: scaled to fit its budget; test cases smaller still. */
export const TorchDeviceSizes = z.object({
  budget_bytes: z.number().nonnegative(),
  /** The module constants the benchmark uses on this kind of device (the file's own when nothing was scaled). */
  constants: z.record(Text.max(100), z.number()),
  test: z.array(TorchCase).max(16),
  benchmark: z.array(TorchCase).max(16),
  /** False when even the smallest sizes found do not fit the budget (the problem is then unavailable there). */
  fits: z.boolean(),
});
export type TorchDeviceSizes = z.infer<typeof TorchDeviceSizes>;

/** What a pytorch problem carries beyond the common fields. */
export const TorchProblemInfo = z.object({
  /** The module-level integer constants as the file writes them. */
  constants: z.record(Text.max(100), z.number()),
  /** The constants scaling may change (the others, e.g. `dim = 1` or `kernel_size = 3`, stay as written). */
  scalable_constants: z.array(Text.max(100)).max(256),
  /** Whether its sizes could be scaled at all; `scaling_note` says how, or why not. */
  scalable: z.boolean(),
  scaling_note: Text.max(2000),
  /** By device kind (`cpu`, `cuda`). */
  sizes: z.record(Text.max(20), TorchDeviceSizes),
  /** Where the file came from: the built-in catalogue or an operator folder (KFORGE_PROBLEM_DIRS). */
  origin: z.enum(['builtin', 'operator']),
  /** SHA-256 of the file's text (the inspection cache key). */
  sha256: Text.max(64),
});
export type TorchProblemInfo = z.infer<typeof TorchProblemInfo>;

/** A problem as the API shows it: test and benchmark cases, never the ranked ones. */
export const Problem = z.object({
  name: Text,
  title: Text,
  level: z.number().int(),
  description: Text,
  signature: z.array(SignatureArg),
  /** The C prototype a candidate defines, e.g. `void solution(const float* x, float* y, int64_t n)`. */
  prototype: Text,
  cases: z.object({ test: z.array(ProblemCase), benchmark: z.array(ProblemCase) }),
  distributions: z.array(InputDistribution),
  tolerance: Tolerance,
  cost: CostFormulas,
  backends: z.array(Backend),
  languages: z.array(Language),
  /** The plain CPU reference source, shown so people (and agents) know exactly what to compute. */
  reference_source: Text.optional(),
  custom: z.boolean().default(false),
  /** `c` (the C ABI above) or `pytorch` (reference_source is the KernelBench file; `torch` has its sizes). */
  kind: ProblemKind.default('c').optional(),
  torch: TorchProblemInfo.optional(),
});
export type Problem = z.infer<typeof Problem>;

/** The reference a user brings for a custom problem (POST /api/v1/agent-session/custom). */
export const CustomProblemInput = z.object({
  signature: z.array(SignatureArg).min(1).max(64),
  reference_source: Text.min(1).max(200_000),
  language: Language.default('c'),
  cases: z.object({ test: z.array(ProblemCase).min(1).max(64), benchmark: z.array(ProblemCase).min(1).max(64) }),
  tolerance: Tolerance.optional(),
  cost: CostFormulas.optional(),
  description: Text.max(10_000).optional(),
});
export type CustomProblemInput = z.infer<typeof CustomProblemInput>;
