// Sweeps (issue 24): one agent run over a problem set, one ordinary session per problem, scored by fast_p.
import { z } from 'zod';
import { Id, PageParams, Text, Timestamp } from './common.js';
import { Interval } from './evaluation.js';
import { AgentChoice, MAX_ATTEMPTS_PER_INSTRUCTION, TokenUsage } from './session.js';

/** The thresholds p of fast_p, and their keys in `fast_p` objects (KernelBench's fast_0 ... fast_5). */
export const FAST_P_THRESHOLDS = [0, 0.5, 1, 1.5, 2, 5] as const;
export const FAST_P_KEYS = ['0', '0.5', '1', '1.5', '2', '5'] as const;
export type FastPKey = (typeof FAST_P_KEYS)[number];

/** The built-in named problem sets: every C-ABI problem, and the PyTorch problems of each KernelBench level. */
export const BUILTIN_SWEEP_SETS = ['c-abi', 'pytorch-level1', 'pytorch-level2', 'pytorch-level3'] as const;
/** The most problems one sweep may name. */
export const MAX_SWEEP_PROBLEMS = 300;

/** queued (no attempt started) -> running -> completed | stopped | failed (no problem could be scored). */
export const SweepStatus = z.enum(['queued', 'running', 'completed', 'stopped', 'failed']);
export type SweepStatus = z.infer<typeof SweepStatus>;

/**
 * A problem of a sweep: `queued` and `running` while its session works, `evaluating` while its best attempt is
 * re-run in ranked mode, then `completed` (scored), `failed` (the ranked run could not be done) or `stopped`.
 * Only `completed` problems can count as correct.
 */
export const SweepProblemStatus = z.enum(['queued', 'running', 'evaluating', 'completed', 'failed', 'stopped']);
export type SweepProblemStatus = z.infer<typeof SweepProblemStatus>;

/** fast_p keyed by p: the share of ALL the sweep's problems that are correct and more than p times faster
 * (`"0"`: the share correct). */
export const FastP = z.object({
  '0': z.number(),
  '0.5': z.number(),
  '1': z.number(),
  '1.5': z.number(),
  '2': z.number(),
  '5': z.number(),
});
export type FastP = z.infer<typeof FastP>;

/** A list of catalogue problem names, or a named set. */
export const SweepProblemsInput = z.union([
  z.array(Text.min(1).max(200)).min(1).max(MAX_SWEEP_PROBLEMS),
  z.object({ set: Text.min(1).max(100) }),
]);
export type SweepProblemsInput = z.infer<typeof SweepProblemsInput>;

export const CreateSweepRequest = z.object({
  name: Text.trim().max(200).optional(),
  agent: AgentChoice,
  device: Text.min(1).max(100),
  problems: SweepProblemsInput,
  attempts_per_problem: z.number().int().min(1).max(MAX_ATTEMPTS_PER_INSTRUCTION),
  instruction: Text.max(10_000).optional(),
});
export type CreateSweepRequest = z.infer<typeof CreateSweepRequest>;

export const SweepProblem = z.object({
  problem_name: Text,
  session_id: Id.nullable(),
  status: SweepProblemStatus,
  /** From the ranked re-run of the best attempt; false until the problem is `completed`. */
  correct: z.boolean(),
  /** The ranked re-run's speedup over the reference; null unless correct. */
  speedup: z.number().nullable(),
  speedup_interval: Interval.optional(),
  best_attempt_id: Id.nullable(),
  /** The ranked re-run's verdict (or the best attempt's, when it was not accepted and so not re-run). */
  verdict: Text.nullable(),
  /** Why a problem `failed`. */
  error: Text.nullable(),
});
export type SweepProblem = z.infer<typeof SweepProblem>;

export const Sweep = z.object({
  id: Id,
  owner_id: Id,
  name: Text,
  agent: AgentChoice,
  device: Text,
  instruction: Text.nullable(),
  attempts_per_problem: z.number().int(),
  /** The named set the problems came from; null for a list of names. */
  set: Text.nullable(),
  status: SweepStatus,
  problem_count: z.number().int(),
  /** Problems scored, failed or stopped. */
  problems_done: z.number().int(),
  /** fast_p by its speedup's interval (fastP): a problem counts for p only when its whole 95% interval lies above p. */
  fast_p: FastP,
  /** KernelBench's point rule (fastPPoint), beside it: the point speedup above p. */
  fast_p_point: FastP,
  /** Geometric mean of the speedups of the correct problems; null when none is correct. */
  geomean_speedup: z.number().nullable(),
  /** Summed over the sweep's sessions (zero for the tuner). */
  token_usage: TokenUsage,
  created_at: Timestamp,
  updated_at: Timestamp,
  problems: z.array(SweepProblem),
});
export type Sweep = z.infer<typeof Sweep>;

/** A list row: the sweep without its per-problem rows. */
export const SweepSummary = Sweep.omit({ problems: true });
export type SweepSummary = z.infer<typeof SweepSummary>;

export const ListSweepsParams = PageParams;
export type ListSweepsParams = z.infer<typeof ListSweepsParams>;

/** A named problem set: built in (derived from the catalogue) or saved by an admin. */
export const SweepSet = z.object({
  name: Text,
  builtin: z.boolean(),
  problems: z.array(Text),
});
export type SweepSet = z.infer<typeof SweepSet>;

/** The name of a set an admin saves: lower-case letters, digits and dashes. */
export const SweepSetName = Text.min(1)
  .max(100)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'use lower-case letters, digits and dashes (e.g. my-set)');

export const SaveSweepSetRequest = z.object({
  problems: z.array(Text.min(1).max(200)).min(1).max(MAX_SWEEP_PROBLEMS),
});
export type SaveSweepSetRequest = z.infer<typeof SaveSweepSetRequest>;

export const AgentsLeaderboardParams = z.object({
  /** A named set, built in or saved (default `c-abi`). */
  set: Text.min(1).max(100).optional(),
  device: Text.max(100).optional(),
});
export type AgentsLeaderboardParams = z.infer<typeof AgentsLeaderboardParams>;

/** One configuration (agent, model, instruction, attempts per problem) with its best completed sweep on the set. */
export const AgentsLeaderboardRow = z.object({
  rank: z.number().int().positive(),
  agent: AgentChoice,
  instruction: Text.nullable(),
  attempts_per_problem: z.number().int(),
  device: Text,
  sweep_id: Id,
  sweep_name: Text,
  problem_count: z.number().int(),
  fast_p: FastP,
  fast_p_point: FastP,
  geomean_speedup: z.number().nullable(),
  /** How many completed sweeps of this configuration there are on the set. */
  sweeps: z.number().int(),
  created_at: Timestamp,
});
export type AgentsLeaderboardRow = z.infer<typeof AgentsLeaderboardRow>;

export const AgentsLeaderboard = z.object({
  set: Text,
  device: Text.nullable(),
  data: z.array(AgentsLeaderboardRow),
});
export type AgentsLeaderboard = z.infer<typeof AgentsLeaderboard>;

/** What fast_p reads of a problem's result: whether it is correct, its speedup, and that speedup's 95% interval. */
export interface FastPResult {
  correct: boolean;
  speedup: number | null;
  speedup_interval?: readonly [number, number] | undefined;
}

/**
 * fast_p from per-problem results: the share of ALL problems that are correct and whose speedup's 95% interval lies
 * above p (its lower end > p; p = 0: correct). A result without an interval counts by its point. So "1.02x
 * (0.95x-1.40x)" is not fast_1: the measurement cannot tell it from the baseline.
 */
export function fastP(problems: readonly FastPResult[]): FastP {
  return fastPBy(problems, (r) => r.speedup_interval?.[0] ?? r.speedup ?? 0);
}

/** KernelBench's rule, kept beside it: the share correct with the point speedup above p, noise or not. */
export function fastPPoint(problems: readonly FastPResult[]): FastP {
  return fastPBy(problems, (r) => r.speedup ?? 0);
}

function fastPBy(problems: readonly FastPResult[], low: (r: FastPResult) => number): FastP {
  const n = problems.length;
  const share = (p: number) => (n === 0 ? 0 : problems.filter((r) => r.correct && (p === 0 || low(r) > p)).length / n);
  return {
    '0': share(0),
    '0.5': share(0.5),
    '1': share(1),
    '1.5': share(1.5),
    '2': share(2),
    '5': share(5),
  };
}

/** Geometric mean of the correct problems' speedups, or null when none is correct. */
export function geomeanSpeedup(problems: readonly { correct: boolean; speedup: number | null }[]): number | null {
  const s = problems.filter((r) => r.correct && r.speedup !== null && r.speedup > 0).map((r) => r.speedup as number);
  if (s.length === 0) return null;
  return Math.exp(s.reduce((a, x) => a + Math.log(x), 0) / s.length);
}
