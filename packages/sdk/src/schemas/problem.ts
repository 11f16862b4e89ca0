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

export const Language = z.enum(['c', 'cpp', 'cuda']);
export type Language = z.infer<typeof Language>;

export const Backend = z.enum(['cpu', 'cuda']);
export type Backend = z.infer<typeof Backend>;

export const InputDistribution = z.enum(['uniform', 'normal', 'positive', 'small_int']);
export type InputDistribution = z.infer<typeof InputDistribution>;

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
