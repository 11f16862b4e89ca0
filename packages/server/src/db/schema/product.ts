// Drizzle descriptions of the product tables created by migrations/0002_product.sql (the SQL file is the source of truth).
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const agentSessions = pgTable('agent_sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  ownerId: uuid('owner_id').notNull(),
  problemName: text('problem_name').notNull(),
  customProblem: jsonb('custom_problem'),
  name: text('name').notNull(),
  label: text('label').notNull(),
  device: text('device').notNull(),
  status: text('status').notNull().default('active'),
  agent: jsonb('agent').notNull(),
  maxTotalAttempts: integer('max_total_attempts'),
  maxRunnerSeconds: doublePrecision('max_runner_seconds'),
  runnerSeconds: doublePrecision('runner_seconds').notNull().default(0),
  inputTokens: bigint('input_tokens', { mode: 'number' }).notNull().default(0),
  outputTokens: bigint('output_tokens', { mode: 'number' }).notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  deletedAt: ts('deleted_at'),
});

export const userInstructions = pgTable('user_instructions', {
  id: uuid('id').primaryKey().defaultRandom(),
  sessionId: uuid('session_id').notNull(),
  text: text('text').notNull(),
  name: text('name').notNull(),
  starred: boolean('starred').notNull().default(false),
  status: text('status').notNull().default('active'),
  maxAttempts: integer('max_attempts').notNull().default(5),
  createdAt: ts('created_at').notNull().defaultNow(),
  deletedAt: ts('deleted_at'),
});

export const generationAttempts = pgTable(
  'generation_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id').notNull(),
    instructionId: uuid('instruction_id'),
    attemptNumber: integer('attempt_number').notNull(),
    status: text('status').notNull().default('queued'),
    language: text('language').notNull(),
    source: text('source'),
    explanation: text('explanation'),
    error: text('error'),
    agentMeta: jsonb('agent_meta'),
    evaluationState: jsonb('evaluation_state'),
    tokenUsage: jsonb('token_usage'),
    runnerSeconds: doublePrecision('runner_seconds'),
    createdAt: ts('created_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [unique('generation_attempts_number_uq').on(t.sessionId, t.attemptNumber)],
);

export const submissions = pgTable('submissions', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull(),
  problemName: text('problem_name').notNull(),
  device: text('device').notNull(),
  language: text('language').notNull(),
  source: text('source').notNull(),
  status: text('status').notNull().default('queued'),
  verdict: text('verdict'),
  timeMs: doublePrecision('time_ms'),
  speedup: doublePrecision('speedup'),
  flaggedForReview: boolean('flagged_for_review').notNull().default(false),
  evaluationState: jsonb('evaluation_state'),
  sessionId: uuid('session_id'),
  attemptId: uuid('attempt_id'),
  error: text('error'),
  createdAt: ts('created_at').notNull().defaultNow(),
  finishedAt: ts('finished_at'),
});

export const leaderboardSeeds = pgTable(
  'leaderboard_seeds',
  {
    problemName: text('problem_name').notNull(),
    device: text('device').notNull(),
    seed: text('seed').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.problemName, t.device] })],
);

export const runners = pgTable('runners', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  devices: jsonb('devices').notNull(),
  version: text('version'),
  local: boolean('local').notNull().default(false),
  lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const jobs = pgTable('jobs', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: text('kind').notNull(),
  payload: jsonb('payload').notNull(),
  device: text('device'),
  status: text('status').notNull().default('queued'),
  attempts: integer('attempts').notNull().default(0),
  maxAttempts: integer('max_attempts').notNull().default(3),
  leaseToken: text('lease_token'),
  leaseExpiresAt: ts('lease_expires_at'),
  runnerId: text('runner_id'),
  lastError: text('last_error'),
  deadReason: text('dead_reason'),
  dedupeKey: text('dedupe_key').unique(),
  sessionId: uuid('session_id'),
  runAfter: ts('run_after').notNull().defaultNow(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const sessionEvents = pgTable('session_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  sessionId: uuid('session_id').notNull(),
  type: text('type').notNull(),
  payload: jsonb('payload').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
