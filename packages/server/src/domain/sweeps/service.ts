// Sweeps (issue 24): one agent over a problem set, one ordinary session per problem (the fair-share queue and the
// daily quotas apply as to hand-started ones), scored by fast_p from ranked re-runs of each session's best attempt.
import {
  type AgentsLeaderboard,
  type AgentsLeaderboardRow,
  BUILTIN_SWEEP_SETS,
  type CreateSweepRequest,
  fastP,
  fastPPoint,
  geomeanSpeedup,
  type Problem,
  type SaveSweepSetRequest,
  type Sweep,
  type SweepProblem,
  type SweepSet,
  SweepSetName,
  type SweepStatus,
  type SweepSummary,
} from '@kernelforge/sdk';
import type { AppContext } from '../../context.js';
import { iso, type Sql } from '../../db/sql.js';
import { cancelQueuedEvaluations } from '../../jobs/queue.js';
import { invalidInput as invalid, NotFoundError } from '../../errors.js';
import { isUuid } from '../sessions/queries.js';
import { stopSessionWork } from '../sessions/stop.js';
import { insertSweepProblem, stopSweepProblems } from './lifecycle.js';
import { sweepJobKey } from './scoring.js';
import { publish } from '../sessions/instruction-chain.js';
import { assertCanQueue, type Caller, startCatalogueSession } from '../sessions/service.js';
import { deviceIds, enforceDailyQuota, requireDevice, resolveAgent, resolveDevice } from '../validation.js';

interface SweepRow {
  id: string;
  owner_id: string;
  name: string;
  agent: { provider: string; model?: string | null };
  device: string;
  instruction: string | null;
  attempts_per_problem: number;
  set_name: string | null;
  stopped_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface ProblemRow {
  id: string;
  sweep_id: string;
  problem_name: string;
  session_id: string | null;
  status: string;
  best_attempt_id: string | null;
  correct: boolean;
  speedup: number | null;
  speedup_interval: [number, number] | null;
  verdict: string | null;
  error: string | null;
  session_status: string | null;
  session_deleted: boolean | null;
  started: boolean;
  input_tokens: string | number | null;
  output_tokens: string | number | null;
}

const SWEEP_COLUMNS =
  'id, owner_id, name, agent, device, instruction, attempts_per_problem, set_name, stopped_at, created_at, updated_at';

const isBuiltinSet = (name: string) => (BUILTIN_SWEEP_SETS as readonly string[]).includes(name);

/** The problems of a built-in named set, in catalogue order. */
export function setProblems(set: string, catalogue: readonly Problem[]): Problem[] | null {
  if (set === 'c-abi') return catalogue.filter((p) => (p.kind ?? 'c') === 'c');
  const level = /^pytorch-level([123])$/.exec(set)?.[1];
  if (level) return catalogue.filter((p) => p.kind === 'pytorch' && p.level === Number(level));
  return null;
}

async function savedSets(sql: Sql): Promise<{ name: string; problems: string[] }[]> {
  return sql.query<{ name: string; problems: string[] }>('SELECT name, problems FROM sweep_sets ORDER BY name');
}

/** A named set's problems (built in, else saved), or null when no set has that name. */
async function namedSet(ctx: AppContext, name: string, catalogue: readonly Problem[]): Promise<Problem[] | null> {
  const builtin = setProblems(name, catalogue);
  if (builtin) return builtin;
  const [saved] = await ctx.db.query<{ problems: string[] }>('SELECT problems FROM sweep_sets WHERE name = $1', [name]);
  if (!saved) return null;
  // A problem removed from the catalogue since the set was saved drops out of it.
  const byName = new Map(catalogue.map((p) => [p.name, p]));
  return saved.problems.flatMap((n) => byName.get(n) ?? []);
}

async function knownSetNames(ctx: AppContext): Promise<string> {
  return [...BUILTIN_SWEEP_SETS, ...(await savedSets(ctx.db)).map((s) => s.name)].join(', ');
}

/** Every named set with its problems: the built-in ones, then those admins saved. */
export async function listSweepSets(ctx: AppContext): Promise<SweepSet[]> {
  const catalogue = await ctx.catalogue.list();
  const builtin = BUILTIN_SWEEP_SETS.map((name) => ({
    name,
    builtin: true,
    problems: (setProblems(name, catalogue) ?? []).map((p) => p.name),
  }));
  const saved = (await savedSets(ctx.db)).map((s) => ({ name: s.name, builtin: false, problems: s.problems }));
  return [...builtin, ...saved];
}

/** Saves (or replaces) a named set of catalogue problems; the built-in names are taken. */
export async function saveSweepSet(
  ctx: AppContext,
  user: Caller,
  name: string,
  body: SaveSweepSetRequest,
): Promise<SweepSet> {
  const form = SweepSetName.safeParse(name);
  if (!form.success) throw invalid(['path', 'name'], form.error.issues[0]?.message ?? 'invalid set name');
  if (isBuiltinSet(name)) throw invalid(['path', 'name'], `'${name}' is a built-in set; pick another name`);
  const known = new Set((await ctx.catalogue.list()).map((p) => p.name));
  const unknown = body.problems.filter((n) => !known.has(n));
  if (unknown.length > 0) throw invalid(['body', 'problems'], `Unknown problem(s): ${unknown.join(', ')}`);
  const problems = [...new Set(body.problems)];
  await ctx.db.query(
    `INSERT INTO sweep_sets (name, problems, created_by) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET problems = EXCLUDED.problems, updated_at = now()`,
    [name, JSON.stringify(problems), user.id],
  );
  return { name, builtin: false, problems };
}

export async function deleteSweepSet(ctx: AppContext, name: string): Promise<void> {
  if (isBuiltinSet(name)) throw invalid(['path', 'name'], `'${name}' is a built-in set and cannot be deleted`);
  const rows = await ctx.db.query('DELETE FROM sweep_sets WHERE name = $1 RETURNING name', [name]);
  if (rows.length === 0) throw new NotFoundError(`Problem set '${name}' not found`);
}

async function resolveProblems(
  ctx: AppContext,
  body: CreateSweepRequest,
): Promise<{ set: string | null; problems: Problem[] }> {
  const catalogue = await ctx.catalogue.list();
  if (!Array.isArray(body.problems)) {
    const set = body.problems.set;
    const all = await namedSet(ctx, set, catalogue);
    if (!all) {
      throw invalid(['body', 'problems', 'set'], `Unknown problem set '${set}'. Sets: ${await knownSetNames(ctx)}`);
    }
    const device = await resolveDevice(ctx, body.device);
    const runnable = all.filter((p) => p.backends.includes(device.kind));
    if (runnable.length === 0) {
      throw invalid(['body', 'problems', 'set'], `Set '${set}' has no problem that runs on ${device.kind} devices`);
    }
    return { set, problems: runnable };
  }
  const names = body.problems;
  const byName = new Map(catalogue.map((p) => [p.name, p]));
  const unknown = names.filter((n) => !byName.has(n));
  if (unknown.length > 0) {
    throw invalid(
      ['body', 'problems'],
      `Unknown problem(s): ${unknown.join(', ')}. Known problems: ${[...byName.keys()].sort().join(', ')}`,
    );
  }
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length > 0)
    throw invalid(['body', 'problems'], `Problem(s) listed twice: ${[...new Set(twice)].join(', ')}`);
  const problems = names.map((n) => byName.get(n) as Problem);
  for (const p of problems) await requireDevice(ctx, body.device, p);
  return { set: null, problems };
}

export async function createSweep(ctx: AppContext, user: Caller, request: CreateSweepRequest): Promise<Sweep> {
  const { set, problems } = await resolveProblems(ctx, request);
  // The device's own id from here on (a generic `cpu-x86_64` names the one x86-64 cpu device).
  const body = { ...request, device: (await resolveDevice(ctx, request.device)).id };
  const agent = resolveAgent(ctx, body.agent);
  // Every session of the sweep counts against the daily session quota: refused up front, never half started.
  await enforceDailyQuota(ctx, 'sessions', user.id, problems.length);
  await assertCanQueue(ctx, user.id);
  const instruction = body.instruction?.trim() || null;
  const label = `${agent.provider}${agent.model ? ` ${agent.model}` : ''}`;
  const name =
    body.name?.trim() || `${label} on ${set ?? `${problems.length} problem${problems.length === 1 ? '' : 's'}`}`;
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: string }>(
      `INSERT INTO sweeps (owner_id, name, agent, device, instruction, attempts_per_problem, set_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [user.id, name, JSON.stringify(agent), body.device, instruction, body.attempts_per_problem, set],
    );
    const sweepId = (row as { id: string }).id;
    for (const [position, problem] of problems.entries()) {
      const sessionId = await startCatalogueSession(ctx, tx, user.id, problem, {
        name: `${name}: ${problem.title}`,
        device: body.device,
        agent,
        instruction: instruction ?? undefined,
        maxAttempts: body.attempts_per_problem,
      });
      await insertSweepProblem(tx, { sweepId, position, problemName: problem.name, sessionId });
    }
    return sweepId;
  });
  return getSweep(ctx, user, id);
}

async function ownSweep(sql: Sql, user: Caller, id: string): Promise<SweepRow> {
  const rows = isUuid(id)
    ? await sql.query<SweepRow & { deleted_at: Date | null }>(
        `SELECT ${SWEEP_COLUMNS}, deleted_at FROM sweeps WHERE id = $1`,
        [id],
      )
    : [];
  const row = rows[0];
  if (!row || row.deleted_at !== null || (row.owner_id !== user.id && !user.is_superuser)) {
    throw new NotFoundError('Sweep not found');
  }
  return row;
}

async function problemRows(sql: Sql, sweepIds: string[]): Promise<ProblemRow[]> {
  if (sweepIds.length === 0) return [];
  return sql.query<ProblemRow>(
    `SELECT sp.id, sp.sweep_id, sp.problem_name, sp.session_id, sp.status, sp.best_attempt_id, sp.correct, sp.speedup,
       sp.speedup_interval, sp.verdict, sp.error, s.status AS session_status, s.deleted_at IS NOT NULL AS session_deleted,
       EXISTS (SELECT 1 FROM generation_attempts a WHERE a.session_id = s.id AND a.status <> 'queued') AS started,
       s.input_tokens, s.output_tokens
     FROM sweep_problems sp LEFT JOIN agent_sessions s ON s.id = sp.session_id
     WHERE sp.sweep_id = ANY($1::uuid[]) ORDER BY sp.sweep_id, sp.position`,
    [sweepIds],
  );
}

function problemStatus(r: ProblemRow): SweepProblem['status'] {
  if (r.status === 'evaluated') return 'completed';
  if (r.status === 'failed' || r.status === 'stopped' || r.status === 'evaluating') return r.status;
  // pending: the session is still at work, unless it was stopped or deleted by hand.
  if (r.session_status === null || r.session_status === 'stopped' || r.session_deleted) return 'stopped';
  return r.started ? 'running' : 'queued';
}

function toProblem(r: ProblemRow): SweepProblem {
  const status = problemStatus(r);
  const scored = status === 'completed';
  return {
    problem_name: r.problem_name,
    session_id: r.session_id,
    status,
    correct: scored && r.correct,
    speedup: scored && r.correct && r.speedup !== null ? Number(r.speedup) : null,
    ...(scored && r.correct && r.speedup_interval ? { speedup_interval: r.speedup_interval } : {}),
    best_attempt_id: r.best_attempt_id,
    verdict: r.verdict,
    error: r.error,
  };
}

const FINAL = new Set<SweepProblem['status']>(['completed', 'failed', 'stopped']);

function sweepStatus(row: SweepRow, problems: SweepProblem[]): SweepStatus {
  if (row.stopped_at) return 'stopped';
  if (problems.every((p) => FINAL.has(p.status))) {
    if (problems.some((p) => p.status === 'completed')) return 'completed';
    return problems.some((p) => p.status === 'stopped') ? 'stopped' : 'failed';
  }
  return problems.every((p) => p.status === 'queued') ? 'queued' : 'running';
}

function toSweep(row: SweepRow, rows: ProblemRow[]): Sweep {
  const problems = rows.map(toProblem);
  const tokens = (k: 'input_tokens' | 'output_tokens') => rows.reduce((a, r) => a + Number(r[k] ?? 0), 0);
  return {
    id: row.id,
    owner_id: row.owner_id,
    name: row.name,
    agent: { provider: row.agent.provider, model: row.agent.model ?? null },
    device: row.device,
    instruction: row.instruction,
    attempts_per_problem: row.attempts_per_problem,
    set: row.set_name,
    status: sweepStatus(row, problems),
    problem_count: problems.length,
    problems_done: problems.filter((p) => FINAL.has(p.status)).length,
    fast_p: fastP(problems),
    fast_p_point: fastPPoint(problems),
    geomean_speedup: geomeanSpeedup(problems),
    token_usage: { input_tokens: tokens('input_tokens'), output_tokens: tokens('output_tokens') },
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    problems,
  };
}

export async function getSweep(ctx: AppContext, user: Caller, id: string): Promise<Sweep> {
  const row = await ownSweep(ctx.db, user, id);
  return toSweep(row, await problemRows(ctx.db, [row.id]));
}

/** The caller's sweeps, newest first; every user's for a superuser. */
export async function listSweeps(
  ctx: AppContext,
  user: Caller,
  page: { limit: number; offset: number },
): Promise<{ data: SweepSummary[]; count: number }> {
  const where = user.is_superuser ? 'WHERE deleted_at IS NULL' : 'WHERE deleted_at IS NULL AND owner_id = $1';
  const params: unknown[] = user.is_superuser ? [] : [user.id];
  const [total] = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sweeps ${where}`, params);
  const rows = await ctx.db.query<SweepRow>(
    `SELECT ${SWEEP_COLUMNS} FROM sweeps ${where} ORDER BY created_at DESC, id
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, page.limit, page.offset],
  );
  const problems = await problemRows(
    ctx.db,
    rows.map((r) => r.id),
  );
  const data = rows.map((r) => {
    const { problems: _p, ...summary } = toSweep(
      r,
      problems.filter((p) => p.sweep_id === r.id),
    );
    return summary;
  });
  return { data, count: total?.n ?? 0 };
}

/** Stops every session of the sweep and its queued ranked re-runs; problems already scored keep their figures. */
async function stopSweepWork(ctx: AppContext, tx: Sql, sweepId: string): Promise<void> {
  await tx.query('UPDATE sweeps SET stopped_at = coalesce(stopped_at, now()), updated_at = now() WHERE id = $1', [
    sweepId,
  ]);
  const rows = await tx.query<{ id: string; session_id: string | null; status: string }>(
    'SELECT id, session_id, status FROM sweep_problems WHERE sweep_id = $1 ORDER BY position',
    [sweepId],
  );
  for (const r of rows) {
    if (r.session_id && r.status === 'pending') await stopSessionWork(ctx, tx, r.session_id);
  }
  const evaluating = rows.filter((r) => r.status === 'evaluating').map((r) => sweepJobKey(r.id));
  const cancelled = await cancelQueuedEvaluations(tx, evaluating);
  await stopSweepProblems(
    tx,
    sweepId,
    cancelled.map((c) => String((c.payload as { target_id?: unknown }).target_id)),
  );
}

export async function stopSweep(ctx: AppContext, user: Caller, id: string): Promise<Sweep> {
  const row = await ownSweep(ctx.db, user, id);
  await ctx.db.transaction((tx) => stopSweepWork(ctx, tx, row.id));
  return getSweep(ctx, user, id);
}

/** Deletes the sweep and (softly, as a session delete does) its sessions, after stopping them. */
export async function deleteSweep(ctx: AppContext, user: Caller, id: string): Promise<void> {
  const row = await ownSweep(ctx.db, user, id);
  await ctx.db.transaction(async (tx) => {
    await stopSweepWork(ctx, tx, row.id);
    const sessions = await tx.query<{ id: string }>(
      `UPDATE agent_sessions SET deleted_at = coalesce(deleted_at, now()), updated_at = now()
       WHERE id IN (SELECT session_id FROM sweep_problems WHERE sweep_id = $1) RETURNING id`,
      [row.id],
    );
    for (const s of sessions) await publish(ctx, tx, { type: 'session.updated', session_id: s.id });
    await tx.query('UPDATE sweeps SET deleted_at = now(), updated_at = now() WHERE id = $1', [row.id]);
  });
}

/**
 * The agents leaderboard of a named set: one row per configuration (agent, model, instruction, attempts per problem)
 * with its best completed sweep on the set (by fast_1, then fast_0, then the geometric-mean speedup).
 */
export async function agentsLeaderboard(
  ctx: AppContext,
  q: { set?: string | undefined; device?: string | undefined },
): Promise<AgentsLeaderboard> {
  const set = q.set ?? 'c-abi';
  const saved = await ctx.db.query('SELECT 1 FROM sweep_sets WHERE name = $1', [set]);
  if (!isBuiltinSet(set) && saved.length === 0) {
    throw invalid(['query', 'set'], `Unknown problem set '${set}'. Sets: ${await knownSetNames(ctx)}`);
  }
  const params: unknown[] = [set];
  let where = 'WHERE deleted_at IS NULL AND stopped_at IS NULL AND set_name = $1';
  if (q.device) {
    params.push(await deviceIds(ctx, q.device));
    where += ` AND device = ANY($${params.length}::text[])`;
  }
  const rows = await ctx.db.query<SweepRow>(`SELECT ${SWEEP_COLUMNS} FROM sweeps ${where}`, params);
  const problems = await problemRows(
    ctx.db,
    rows.map((r) => r.id),
  );
  const completed = rows
    .map((r) =>
      toSweep(
        r,
        problems.filter((p) => p.sweep_id === r.id),
      ),
    )
    .filter((s) => s.status === 'completed');
  const better = (a: Sweep, b: Sweep) =>
    b.fast_p['1'] - a.fast_p['1'] ||
    b.fast_p['0'] - a.fast_p['0'] ||
    (b.geomean_speedup ?? 0) - (a.geomean_speedup ?? 0) ||
    a.created_at.localeCompare(b.created_at);
  const groups = new Map<string, Sweep[]>();
  for (const s of completed) {
    const key = JSON.stringify([
      s.agent.provider,
      s.agent.model ?? null,
      s.instruction,
      s.attempts_per_problem,
      s.device,
    ]);
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const best = [...groups.values()].map((g) => ({ top: [...g].sort(better)[0] as Sweep, sweeps: g.length }));
  best.sort((a, b) => better(a.top, b.top));
  const data: AgentsLeaderboardRow[] = best.map(({ top, sweeps }, i) => ({
    rank: i + 1,
    agent: top.agent,
    instruction: top.instruction,
    attempts_per_problem: top.attempts_per_problem,
    device: top.device,
    sweep_id: top.id,
    sweep_name: top.name,
    problem_count: top.problem_count,
    fast_p: top.fast_p,
    fast_p_point: top.fast_p_point,
    geomean_speedup: top.geomean_speedup,
    sweeps,
    created_at: top.created_at,
  }));
  return { set, device: q.device ?? null, data };
}
