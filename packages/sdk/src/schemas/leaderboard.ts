// Submissions and leaderboards: one row per user and device, their best accepted time, ranked.
import { z } from 'zod';
import { Id, Timestamp, Text } from './common.js';
import { EvaluationState, Interval } from './evaluation.js';
import { Language } from './problem.js';

export const SubmissionStatus = z.enum(['queued', 'evaluating', 'completed', 'failed']);
export type SubmissionStatus = z.infer<typeof SubmissionStatus>;

export const PublicUser = z.object({
  id: Id,
  full_name: Text.nullable(),
  display_name: Text,
  /** Only superusers see it; never sent to anyone else. */
  email: Text.optional(),
});
export type PublicUser = z.infer<typeof PublicUser>;

/** `submit`: a ranked evaluation with the board's secret seed, on the leaderboard. `test` ("Run tests"): the same
    source compiled, checked and benchmarked in benchmark mode on public inputs; never on a leaderboard, never reviewed
    and not counted in the daily submission quota (test runs have their own). */
export const SubmissionPurpose = z.enum(['submit', 'test']);
export type SubmissionPurpose = z.infer<typeof SubmissionPurpose>;

export const Submission = z.object({
  id: Id,
  user: PublicUser,
  problem_name: Text,
  device: Text,
  language: Language,
  /** Visible to its owner and to superusers only; null for everybody else. */
  source: Text.nullable(),
  status: SubmissionStatus,
  /** Absent from older servers: a submission. */
  purpose: SubmissionPurpose.optional(),
  verdict: Text.nullable(),
  time_ms: z.number().nullable(),
  speedup: z.number().nullable(),
  /** Ranked mode returns no candidate output and no hidden sizes. Anyone but the owner and superusers gets the
      figures only (`redacted`: no compile log, output or messages derived from the source). */
  evaluation_state: EvaluationState.nullable(),
  session_id: Id.nullable().optional(),
  attempt_id: Id.nullable().optional(),
  error: Text.nullable().optional(),
  created_at: Timestamp,
  finished_at: Timestamp.nullable(),
});
export type Submission = z.infer<typeof Submission>;

export const CreateSubmissionRequest = z.object({
  problem_name: Text.min(1).max(200),
  device: Text.min(1).max(100),
  language: Language,
  source: Text.min(1).max(200_000),
  attempt_id: Text.max(100).optional(),
});
export type CreateSubmissionRequest = z.infer<typeof CreateSubmissionRequest>;

export const LeaderboardEntry = z.object({
  rank: z.number().int().positive(),
  submission_id: Id,
  user: PublicUser,
  problem_name: Text,
  device: Text,
  language: Language.optional(),
  time_ms: z.number(),
  /** 95% interval of `time_ms`, when the runner measured one. */
  time_interval: Interval.optional(),
  speedup: z.number().nullable(),
  /** 95% interval of the speedup, when the runner measured one: an interval holding 1.00x is no difference. */
  speedup_interval: Interval.optional(),
  /** How many accepted ranked runs this user has on this problem and device: the entry is the fastest of them. */
  runs: z.number().int().positive().default(1),
  /** Tied with the entry ranked just above: the 95% interval of the ratio of their times holds 1 (their time
      intervals overlap), so the order between the two is within the noise of the measurement. False when either
      has no interval, and for the first entry. */
  within_noise_of_previous: z.boolean().default(false),
  /** Over the device's peak or over 10x: ranked below every unflagged entry until reviewed; why, in words (to
      anyone but the author and superusers, a reason from the source scan says what kind of thing, not where). */
  flagged_for_review: z.boolean().default(false),
  review_reasons: z.array(z.string()).default([]),
  created_at: Timestamp,
});
export type LeaderboardEntry = z.infer<typeof LeaderboardEntry>;

export const Leaderboard = z.object({
  problem_name: Text,
  title: Text,
  entries: z.array(LeaderboardEntry),
  count: z.number().int(),
});
export type Leaderboard = z.infer<typeof Leaderboard>;

export const LeaderboardList = z.object({ data: z.array(Leaderboard), count: z.number().int() });
export type LeaderboardList = z.infer<typeof LeaderboardList>;

export const SubmissionDetail = Submission.extend({ rank: z.number().int().nullable() });
export type SubmissionDetail = z.infer<typeof SubmissionDetail>;

/** A result flagged for review, as the admin's review queue lists it (GET /api/v1/admin/reviews). */
export const ReviewItem = z.object({
  submission_id: Id,
  user: PublicUser,
  problem_name: Text,
  device: Text,
  time_ms: z.number().nullable(),
  speedup: z.number().nullable(),
  /** Why the judge flagged it. */
  review_reasons: z.array(z.string()),
  /** pending: ranked below unflagged results; approved: ranked among them; rejected: not ranked. */
  status: z.enum(['pending', 'approved', 'rejected']),
  /** The reviewer's reason (required to reject). */
  decision_reason: Text.nullable(),
  reviewed_at: Timestamp.nullable(),
  created_at: Timestamp,
});
export type ReviewItem = z.infer<typeof ReviewItem>;

export const ReviewListParams = z.object({
  status: z.enum(['pending', 'decided']).optional(),
  limit: z.number().int().min(1).max(200).optional(),
  offset: z.number().int().min(0).optional(),
});
export type ReviewListParams = z.infer<typeof ReviewListParams>;

/** POST /api/v1/admin/reviews/{submission_id}: approve into the ranking, or reject with a reason. */
export const ReviewDecision = z.object({
  decision: z.enum(['approve', 'reject']),
  reason: Text.trim().max(500).optional(),
});
export type ReviewDecision = z.infer<typeof ReviewDecision>;

export const DEFAULT_LEADERBOARD_LIMIT = 50;
export const LEADERBOARD_PAGE_LIMIT = 100;
export const ALL_LEADERBOARDS_LIMIT = 3;
