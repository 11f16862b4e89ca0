// Agent sessions: create (catalogue or custom), list, read, rename, stop, delete, restore, best attempt, a new round of attempts.
import {
  type AgentSession,
  type AgentSessionSummary,
  type CreateSessionRequest,
  DEFAULT_MAX_ATTEMPTS,
  type GenerationAttempt,
  type NewAttemptsRequest,
  type NewAttemptsResponse,
  type UpdateSessionRequest,
} from '@kernelforge/sdk';
import type { CreateCustomSessionRequest as CustomSchema } from '@kernelforge/sdk';
import type { z } from 'zod';
import { ConflictError, LimitError, NotFoundError } from '../../errors.js';
import { createAttempt } from '../attempts/lifecycle.js';
import { DEFAULT_INSTRUCTION, dailyAttemptsLeft, publish } from './instruction-chain.js';
import { findSession, ownSession, sessionAttempts, sessionInstructions } from './queries.js';
import { markSessionActive } from './lifecycle.js';
import { stopSessionWork } from './stop.js';
import { customProblemName, customToProblem } from './custom-problem.js';
import type { AppContext } from '../../context.js';
import {
  type AttemptRow,
  bestAttempt,
  INSTRUCTION_COLUMNS,
  type InstructionRow,
  SESSION_COLUMNS,
  type SessionRow,
  toAttempt,
  toInstruction,
  toSession,
  toSessionSummary,
} from '../../db/rows.js';
import type { Sql } from '../../db/sql.js';
import { enforceDailyQuota, requireDevice, resolveAgent } from '../validation.js';

export interface Caller {
  id: string;
  is_superuser: boolean;
}

type CustomBody = z.output<typeof CustomSchema>;

/** Instruction names are short labels derived from the text until the user renames them. */
const nameFromText = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);

export async function assertCanQueue(ctx: AppContext, userId: string): Promise<void> {
  if ((await dailyAttemptsLeft(ctx, ctx.db, userId)) <= 0) {
    throw new LimitError(`Daily limit of ${ctx.config.dailyLimits.attempts} attempts reached`, 3600);
  }
}

async function insertInstruction(
  tx: Sql,
  sessionId: string,
  text: string,
  maxAttempts: number,
): Promise<InstructionRow> {
  const rows = await tx.query<InstructionRow>(
    `INSERT INTO user_instructions (session_id, text, name, max_attempts) VALUES ($1, $2, $3, $4) RETURNING ${INSTRUCTION_COLUMNS}`,
    [sessionId, text, nameFromText(text), maxAttempts],
  );
  return rows[0] as InstructionRow;
}

async function insertSession(
  tx: Sql,
  values: {
    ownerId: string;
    problemName: string;
    custom: unknown;
    name: string;
    label: string;
    device: string;
    agent: unknown;
  },
): Promise<SessionRow> {
  const rows = await tx.query<SessionRow>(
    `INSERT INTO agent_sessions (owner_id, problem_name, custom_problem, name, label, device, agent)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${SESSION_COLUMNS}`,
    [
      values.ownerId,
      values.problemName,
      values.custom === null ? null : JSON.stringify(values.custom),
      values.name,
      values.label,
      values.device,
      JSON.stringify(values.agent),
    ],
  );
  return rows[0] as SessionRow;
}

export async function createSession(ctx: AppContext, user: Caller, body: CreateSessionRequest): Promise<AgentSession> {
  const problem = await ctx.catalogue.require(body.problem_name);
  const device = await requireDevice(ctx, body.device, problem);
  const agent = resolveAgent(ctx, body.agent);
  await enforceDailyQuota(ctx, 'sessions', user.id);
  await assertCanQueue(ctx, user.id);
  const id = await ctx.db.transaction((tx) =>
    startCatalogueSession(ctx, tx, user.id, problem, {
      name: body.name?.trim() || problem.title,
      device: device.id,
      agent,
      instruction: body.instruction,
      maxAttempts: body.max_attempts ?? DEFAULT_MAX_ATTEMPTS,
    }),
  );
  return getSession(ctx, user, id);
}

/**
 * A session on a catalogue problem (created `active`) with its first instruction and first queued attempt (checks
 * done by the caller).
 */
export async function startCatalogueSession(
  ctx: AppContext,
  tx: Sql,
  ownerId: string,
  problem: { name: string; title: string },
  opts: { name: string; device: string; agent: unknown; instruction?: string | undefined; maxAttempts: number },
): Promise<string> {
  const session = await insertSession(tx, {
    ownerId,
    problemName: problem.name,
    custom: null,
    name: opts.name,
    label: problem.title,
    device: opts.device,
    agent: opts.agent,
  });
  const text = opts.instruction?.trim() || DEFAULT_INSTRUCTION;
  const instruction = await insertInstruction(tx, session.id, text, opts.maxAttempts);
  await createAttempt(ctx, tx, session, { instructionId: instruction.id });
  return session.id;
}

export async function createCustomSession(ctx: AppContext, user: Caller, body: CustomBody): Promise<AgentSession> {
  const problemName = customProblemName(body.name);
  const problem = customToProblem(problemName, body.problem);
  const device = await requireDevice(ctx, body.device, problem);
  const agent = resolveAgent(ctx, body.agent);
  await enforceDailyQuota(ctx, 'sessions', user.id);
  await assertCanQueue(ctx, user.id);
  const id = await ctx.db.transaction(async (tx) => {
    const session = await insertSession(tx, {
      ownerId: user.id,
      problemName,
      custom: body.problem,
      name: body.name,
      label: body.name,
      device: device.id,
      agent,
    });
    const text = body.instruction?.trim() || DEFAULT_INSTRUCTION;
    const instruction = await insertInstruction(tx, session.id, text, body.max_attempts ?? DEFAULT_MAX_ATTEMPTS);
    // The user's own candidate is attempt #1, evaluated as is (its language the session's: a custom reference is C
    // on cpu); the agent takes over from its result. Without one, an agent writes attempt #1.
    const given = body.solution_source?.trim()
      ? { source: body.solution_source, explanation: 'Your own solution, evaluated as submitted.' }
      : undefined;
    await createAttempt(ctx, tx, session, { instructionId: instruction.id, given });
    return session.id;
  });
  return getSession(ctx, user, id);
}

export async function listSessions(
  ctx: AppContext,
  filter: {
    ownerId?: string | undefined;
    problemName?: string | undefined;
    includeDeleted?: boolean | undefined;
    deletedOnly?: boolean | undefined;
  },
  page: { limit: number; offset: number },
): Promise<{ data: AgentSessionSummary[]; count: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.ownerId !== undefined) {
    // An owner id that is not a uuid matches nobody (and must not reach the uuid cast).
    if (!/^[0-9a-f-]{36}$/i.test(filter.ownerId)) return { data: [], count: 0 };
    params.push(filter.ownerId);
    where.push(`owner_id = $${params.length}`);
  }
  if (filter.problemName !== undefined) {
    params.push(filter.problemName);
    where.push(`problem_name = $${params.length}`);
  }
  if (filter.deletedOnly) where.push('deleted_at IS NOT NULL');
  else if (!filter.includeDeleted) where.push('deleted_at IS NULL');
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const [total] = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM agent_sessions ${clause}`, params);
  const rows = await ctx.db.query<SessionRow>(
    `SELECT ${SESSION_COLUMNS} FROM agent_sessions ${clause} ORDER BY created_at DESC, id
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, page.limit, page.offset],
  );
  const ids = rows.map((r) => r.id);
  // Attempts without their sources: enough for the best attempt and the count.
  const attempts =
    ids.length === 0
      ? []
      : await ctx.db.query<AttemptRow>(
          `SELECT id, session_id, instruction_id, attempt_number, status, language, NULL::text AS source, explanation, error,
             NULL::jsonb AS agent_meta, evaluation_state, token_usage, runner_seconds, created_at, finished_at
           FROM generation_attempts WHERE session_id = ANY($1::uuid[]) ORDER BY attempt_number`,
          [ids],
        );
  const bySession = new Map<string, AttemptRow[]>();
  for (const a of attempts) bySession.set(a.session_id, [...(bySession.get(a.session_id) ?? []), a]);
  return { data: rows.map((r) => toSessionSummary(r, bySession.get(r.id) ?? [])), count: total?.n ?? 0 };
}

export async function getSession(ctx: AppContext, user: Caller, id: string): Promise<AgentSession> {
  const session = await ownSession(ctx.db, user, id);
  const [attempts, instructions] = await Promise.all([sessionAttempts(ctx.db, id), sessionInstructions(ctx.db, id)]);
  return toSession(session, attempts, instructions);
}

export async function updateSession(
  ctx: AppContext,
  user: Caller,
  id: string,
  body: UpdateSessionRequest,
): Promise<AgentSession> {
  await ownSession(ctx.db, user, id);
  await ctx.db.transaction(async (tx) => {
    await tx.query(
      `UPDATE agent_sessions SET name = coalesce($2, name), label = coalesce($3, label), updated_at = now() WHERE id = $1`,
      [id, body.name ?? null, body.label ?? null],
    );
    await publish(ctx, tx, { type: 'session.updated', session_id: id });
  });
  return getSession(ctx, user, id);
}

export async function stopSession(ctx: AppContext, user: Caller, id: string): Promise<AgentSession> {
  await ownSession(ctx.db, user, id);
  await ctx.db.transaction((tx) => stopSessionWork(ctx, tx, id));
  return getSession(ctx, user, id);
}

/** Soft delete: the session stops and leaves the lists; restore brings it back (stopped). */
export async function deleteSession(ctx: AppContext, user: Caller, id: string): Promise<void> {
  await ownSession(ctx.db, user, id);
  await ctx.db.transaction(async (tx) => {
    await stopSessionWork(ctx, tx, id);
    await tx.query(
      'UPDATE agent_sessions SET deleted_at = coalesce(deleted_at, now()), updated_at = now() WHERE id = $1',
      [id],
    );
    await publish(ctx, tx, { type: 'session.updated', session_id: id });
  });
}

export async function restoreSession(ctx: AppContext, user: Caller, id: string): Promise<AgentSession> {
  await ownSession(ctx.db, user, id);
  await ctx.db.transaction(async (tx) => {
    await tx.query('UPDATE agent_sessions SET deleted_at = NULL, updated_at = now() WHERE id = $1', [id]);
    await publish(ctx, tx, { type: 'session.updated', session_id: id });
  });
  return getSession(ctx, user, id);
}

export async function bestAttemptOf(ctx: AppContext, user: Caller, id: string): Promise<GenerationAttempt> {
  await ownSession(ctx.db, user, id);
  const best = bestAttempt((await sessionAttempts(ctx.db, id)).map(toAttempt));
  if (!best) throw new NotFoundError('Attempt not found');
  return best;
}

/** A new instruction and its first queued attempt; a stopped or idle session becomes active again. */
export async function newAttempts(
  ctx: AppContext,
  user: Caller,
  id: string,
  body: NewAttemptsRequest,
): Promise<NewAttemptsResponse> {
  const session = await ownSession(ctx.db, user, id);
  if (session.deleted_at) throw new ConflictError('Session is deleted; restore it first');
  await assertCanQueue(ctx, session.owner_id);
  return ctx.db.transaction(async (tx) => {
    const instruction = await insertInstruction(tx, id, body.instruction, body.max_attempts ?? DEFAULT_MAX_ATTEMPTS);
    await markSessionActive(ctx, tx, id, { resume: true });
    await publish(ctx, tx, { type: 'instruction.updated', session_id: id, instruction: toInstruction(instruction) });
    const locked = await findSession(tx, id, { lock: true });
    if (!locked) throw new Error(`session ${id} vanished`);
    const attempt = await createAttempt(ctx, tx, locked, { instructionId: instruction.id });
    return { instruction: toInstruction(instruction), generation_attempts: [toAttempt(attempt)] };
  });
}
