import type { TorchProblemInfo } from '@kernelforge/sdk';
// The full problem definition as problem.json holds it, ranked sizes included (never sent to clients).
import { z } from 'zod';

export const ArgTypeSchema = z.enum(['f32*', 'f64*', 'i32*', 'i64*', 'f32', 'f64', 'i32', 'i64']);
export const ArgRoleSchema = z.enum(['in', 'out', 'inout', 'size', 'scalar']);

export const SignatureArgSchema = z.object({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
  type: ArgTypeSchema,
  role: ArgRoleSchema,
  shape: z.array(z.string()).optional(),
});

export const CaseSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9_.-]+$/),
  sizes: z.record(z.string(), z.number()),
});

export const ProblemDefinitionSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9_]+$/),
  title: z.string(),
  level: z.number().int(),
  description: z.string(),
  signature: z.array(SignatureArgSchema).min(1).max(16),
  cases: z.object({
    test: z.array(CaseSchema).min(1),
    benchmark: z.array(CaseSchema).min(1),
    ranked: z.array(CaseSchema).default([]),
  }),
  distributions: z
    .array(z.enum(['uniform', 'normal', 'positive', 'small_int']))
    .min(1)
    .default(['uniform', 'normal']),
  tolerance: z
    .object({ atol: z.number().nonnegative(), rtol: z.number().nonnegative() })
    .default({ atol: 1e-4, rtol: 1e-4 }),
  cost: z.object({ flops: z.string(), bytes: z.string() }),
  backends: z.array(z.enum(['cpu', 'cuda'])).default(['cpu', 'cuda']),
  languages: z.array(z.enum(['c', 'cpp', 'cuda', 'pytorch'])).default(['c', 'cpp', 'cuda']),
});
export type ProblemJson = z.infer<typeof ProblemDefinitionSchema>;
export type SignatureArgDef = z.infer<typeof SignatureArgSchema>;
export type CaseDef = z.infer<typeof CaseSchema>;

/** A loaded problem: its json, its reference sources, and whether a user brought it. */
export interface ProblemDefinition extends ProblemJson {
  reference_c: string;
  /** The cuda baseline; absent for custom problems. */
  reference_cu?: string;
  /** Custom problems' references are untrusted: they are compiled and run inside the sandbox. */
  custom: boolean;
  dir?: string;
  /** Absent: `c`. */
  kind?: 'c' | 'pytorch';
  /** pytorch problems: the KernelBench file and what the inspector found in it. */
  torch?: {
    source: string;
    file_name: string;
    /** Where it was loaded from (server side only; never on the wire). */
    path?: string;
    info: TorchProblemInfo;
  };
}

export type Catalogue = ReadonlyMap<string, ProblemDefinition>;
