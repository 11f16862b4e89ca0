// The attempt lifecycle (domain/attempts/lifecycle.ts) moves an attempt only along DESIGN 3's arrows; anything else changes
// nothing. It also makes the job each move calls for: a queued attempt's generate job, an evaluating one's evaluate job.
import type { AgentSession, EvaluationState } from '@kernelforge/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  ATTEMPT_TRANSITIONS,
  canTransition,
  markCompleted,
  markEvaluating,
  markFailed,
  markGenerating,
  markStopped,
} from '../../src/domain/attempts/lifecycle.js';
import { JOB_PRIORITY } from '../../src/jobs/types.js';
import type { SessionRow } from '../../src/db/rows.js';
import { continueInstruction } from '../../src/domain/sessions/instruction-chain.js';
import { findSession } from '../../src/domain/sessions/queries.js';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/server.js';
import { CPU, fakeState, json, registerRunner, createProductApp } from './helpers.js';

let app: TestApp;
let user: TestUser;

beforeAll(async () => {
  // No background work: nothing but this test moves the attempts.
  app = await createProductApp();
  await registerRunner(app, [CPU]);
  user = await app.createUser();
});
afterAll(() => app?.stop());

async function newSession(): Promise<{ sessionId: string; attemptId: string; session: SessionRow }> {
  const created = await json<AgentSession>(
    app.request('/api/v1/agent-session', {
      method: 'POST',
      token: user.token,
      json: { problem_name: '19_ReLU', device: CPU.id, max_attempts: 1, agent: { provider: 'tuner' } },
    }),
  );
  expect(created.status).toBe(201);
  const attempt = created.body.generation_attempts[0];
  if (!attempt) throw new Error('no first attempt');
  return { sessionId: created.body.id, attemptId: attempt.id, session: await sessionRow(created.body.id) };
}

const p = () => app.ctx;
const statusOf = async (id: string) =>
  (await p().db.query<{ status: string }>('SELECT status FROM generation_attempts WHERE id = $1', [id]))[0]?.status;
const eventCount = async (sessionId: string) =>
  (
    await p().db.query<{ n: number }>('SELECT count(*)::int AS n FROM session_events WHERE session_id = $1', [
      sessionId,
    ])
  )[0]?.n;
const candidate = { source: 'void solution() {}', explanation: 'x', language: 'c' };
const sessionRow = async (id: string): Promise<SessionRow> => {
  const row = await findSession(p().db, id);
  if (!row) throw new Error(`no session ${id}`);
  return row;
};
/** Every job of an attempt (its generate job names it as attempt_id, its evaluate job as target_id). */
const jobsOf = (attemptId: string) =>
  p().db.query<{
    kind: string;
    status: string;
    payload: Record<string, unknown>;
    device: string | null;
    session_id: string | null;
    max_attempts: number;
    dedupe_key: string | null;
    priority: number;
    owner_id: string | null;
  }>(
    `SELECT kind, status, payload, device, session_id, max_attempts, dedupe_key, priority, owner_id FROM jobs
     WHERE payload->>'attempt_id' = $1 OR payload->>'target_id' = $1 ORDER BY kind`,
    [attemptId],
  );

test('the transition table is DESIGN 3: queued -> generating -> evaluating -> completed | failed | stopped', () => {
  expect(canTransition('queued', 'generating')).toBe(true);
  expect(canTransition('generating', 'evaluating')).toBe(true);
  expect(canTransition('evaluating', 'completed')).toBe(true);
  for (const from of ['queued', 'generating', 'evaluating']) {
    expect(canTransition(from, 'failed')).toBe(true);
    expect(canTransition(from, 'stopped')).toBe(true);
  }
  for (const final of ['completed', 'failed', 'stopped']) {
    for (const to of Object.keys(ATTEMPT_TRANSITIONS) as (keyof typeof ATTEMPT_TRANSITIONS)[]) {
      expect(canTransition(final, to), `${final} -> ${to}`).toBe(false);
    }
  }
  expect(canTransition('queued', 'completed')).toBe(false);
  expect(canTransition('queued', 'evaluating')).toBe(false);
});

test('a late evaluation result for a stopped attempt does not resurrect it, and publishes nothing', async () => {
  const { sessionId, attemptId, session } = await newSession();
  await p().db.transaction(async (tx) => {
    expect(await markGenerating(p(), tx, attemptId)).not.toBeNull();
    expect(await markEvaluating(p(), tx, session, attemptId, candidate)).not.toBeNull();
    expect((await markStopped(p(), tx, [attemptId])).map((a) => a.id)).toEqual([attemptId]);
  });
  expect(await statusOf(attemptId)).toBe('stopped');
  const events = await eventCount(sessionId);

  const late = fakeState('benchmark', 1.5) as EvaluationState;
  await p().db.transaction(async (tx) => {
    expect(await markCompleted(p(), tx, attemptId, late)).toBeNull();
    expect(await markFailed(p(), tx, attemptId, 'runner lost')).toBeNull();
    expect(await markEvaluating(p(), tx, session, attemptId, candidate)).toBeNull();
    expect(await markGenerating(p(), tx, attemptId)).toBeNull();
    expect(await markStopped(p(), tx, [attemptId])).toEqual([]);
  });
  expect(await statusOf(attemptId)).toBe('stopped');
  const [row] = await p().db.query<{ evaluation_state: unknown }>(
    'SELECT evaluation_state FROM generation_attempts WHERE id = $1',
    [attemptId],
  );
  expect(row?.evaluation_state).toBeNull();
  expect(await eventCount(sessionId)).toBe(events);
});

test('a queued attempt cannot skip to completed or evaluating', async () => {
  const { attemptId, session } = await newSession();
  await p().db.transaction(async (tx) => {
    expect(await markCompleted(p(), tx, attemptId, fakeState('benchmark', 1) as EvaluationState)).toBeNull();
    expect(await markEvaluating(p(), tx, session, attemptId, candidate)).toBeNull();
  });
  expect(await statusOf(attemptId)).toBe('queued');
  // A retried generate job finds the attempt generating already and gets it back.
  await p().db.transaction(async (tx) => {
    expect((await markGenerating(p(), tx, attemptId))?.status).toBe('generating');
    expect((await markGenerating(p(), tx, attemptId))?.status).toBe('generating');
    expect((await markFailed(p(), tx, attemptId, 'agent error'))?.status).toBe('failed');
  });
  expect(await statusOf(attemptId)).toBe('failed');
});

test('each status change publishes one event, `attempt.updated` with the whole attempt; a retried take publishes none', async () => {
  const { sessionId, attemptId, session } = await newSession();
  const before = await p().bus.lastEventId(sessionId);
  const state = fakeState('benchmark', 1.5) as EvaluationState;
  await p().db.transaction(async (tx) => {
    await markGenerating(p(), tx, attemptId);
    await markGenerating(p(), tx, attemptId);
    await markEvaluating(p(), tx, session, attemptId, candidate);
    await markCompleted(p(), tx, attemptId, state);
  });
  const events = (await p().bus.eventsAfter(sessionId, before)).map((e) => e.event);
  expect(events.map((e) => e.type)).toEqual(['attempt.updated', 'attempt.updated', 'attempt.updated']);
  const attempts = events.map((e) => (e.type === 'attempt.updated' ? e.attempt : undefined));
  expect(attempts.map((a) => a?.status)).toEqual(['generating', 'evaluating', 'completed']);
  expect(attempts.every((a) => a?.id === attemptId)).toBe(true);
  expect(attempts[1]?.source).toBe(candidate.source);
  expect(attempts[2]?.evaluation_state?.verdict).toBe(state.verdict);
});

test('the replay returns events in id order, not in the text order of their ids', async () => {
  const { sessionId } = await newSession();
  // Ids past the sequence's reach, across a power of ten: as text '100000000000' sorts before '99999999999'.
  for (const id of ['99999999999', '100000000000'])
    await p().db.query(
      `INSERT INTO session_events (id, session_id, type, payload) VALUES ($1, $2, 'session.updated', $3)`,
      [id, sessionId, JSON.stringify({ type: 'session.updated', session_id: sessionId })],
    );
  const replay = await p().bus.eventsAfter(sessionId, 99_999_999_990);
  expect(replay.map((e) => e.id)).toEqual([99_999_999_999, 100_000_000_000]);
});

// The jobs of an attempt are made by its lifecycle's owner, in the transaction of the move that calls for them.

test('a created attempt has exactly one job, its generate job; so has the first attempt of a new round', async () => {
  const { sessionId, attemptId } = await newSession();
  const generateJob = (id: string) => ({
    kind: 'generate',
    status: 'queued',
    payload: { attempt_id: id },
    device: null,
    session_id: sessionId,
    max_attempts: p().config.jobs.maxTries,
    dedupe_key: `generate:${id}`,
    priority: JOB_PRIORITY.firstAttempt,
    owner_id: user.user.id,
  });
  expect(await jobsOf(attemptId)).toEqual([generateJob(attemptId)]);

  const round = await json<{ generation_attempts: { id: string; status: string }[] }>(
    app.request(`/api/v1/agent-session/${sessionId}/attempt`, {
      method: 'POST',
      token: user.token,
      json: { instruction: 'again', max_attempts: 1 },
    }),
  );
  expect(round.status).toBe(201);
  const next = round.body.generation_attempts[0];
  expect(next?.status).toBe('queued');
  expect(await jobsOf(next?.id ?? '')).toEqual([generateJob(next?.id ?? '')]);
});

test("a custom session's own solution is attempt #1 with exactly one job, its evaluate job, and no generate job", async () => {
  const problem = {
    signature: [
      { name: 'x', type: 'f32*', role: 'in', shape: ['n'] },
      { name: 'y', type: 'f32*', role: 'out', shape: ['n'] },
      { name: 'n', type: 'i64', role: 'size' },
    ],
    reference_source:
      '#include <stdint.h>\nvoid solution(const float* x, float* y, int64_t n) { for (int64_t i = 0; i < n; i++) y[i] = 2.0f * x[i]; }\n',
    language: 'c',
    cases: { test: [{ name: 'small', sizes: { n: 1000 } }], benchmark: [{ name: 'big', sizes: { n: 100000 } }] },
  };
  const created = await json<AgentSession>(
    app.request('/api/v1/agent-session/custom', {
      method: 'POST',
      token: user.token,
      json: { name: 'Double it', problem, device: CPU.id, solution_source: problem.reference_source },
    }),
  );
  expect(created.status).toBe(201);
  const attempt = created.body.generation_attempts[0];
  expect(attempt).toMatchObject({ attempt_number: 1, status: 'evaluating', language: 'c' });
  const session = await sessionRow(created.body.id);
  expect(await jobsOf(attempt?.id ?? '')).toEqual([
    {
      kind: 'evaluate',
      status: 'queued',
      payload: {
        kind: 'attempt',
        target_id: attempt?.id,
        mode: 'benchmark',
        problem_name: created.body.problem_name,
        device: CPU.id,
        language: 'c',
        source: problem.reference_source,
        custom_problem: session.custom_problem,
      },
      device: CPU.id,
      session_id: session.id,
      max_attempts: p().config.jobs.maxTries,
      dedupe_key: `evaluate:attempt:${attempt?.id}`,
      priority: JOB_PRIORITY.firstAttempt,
      owner_id: user.user.id,
    },
  ]);
  const [generate] = await p().db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM jobs WHERE session_id = $1 AND kind = 'generate'`,
    [session.id],
  );
  expect(generate?.n).toBe(0);
});

test('an attempt moved to evaluating has exactly one evaluate job; a refused move makes none', async () => {
  const { sessionId, attemptId, session } = await newSession();
  const other = await newSession();
  const evaluateJobs = async () => (await jobsOf(attemptId)).filter((j) => j.kind === 'evaluate');
  await p().db.transaction(async (tx) => {
    expect(await markEvaluating(p(), tx, session, attemptId, candidate)).toBeNull();
    expect(await markGenerating(p(), tx, attemptId)).not.toBeNull();
  });
  expect(await evaluateJobs()).toEqual([]);
  // Another session's row is refused outright (the move is rolled back with its transaction).
  await expect(
    p().db.transaction((tx) => markEvaluating(p(), tx, other.session, attemptId, candidate)),
  ).rejects.toThrow(/is not of session/);
  expect(await statusOf(attemptId)).toBe('generating');
  expect(await evaluateJobs()).toEqual([]);

  await p().db.transaction(async (tx) => {
    expect((await markEvaluating(p(), tx, session, attemptId, candidate))?.status).toBe('evaluating');
    // A second store (a retried generation) is refused and queues nothing more.
    expect(await markEvaluating(p(), tx, session, attemptId, candidate)).toBeNull();
  });
  expect(await evaluateJobs()).toEqual([
    {
      kind: 'evaluate',
      status: 'queued',
      payload: {
        kind: 'attempt',
        target_id: attemptId,
        mode: 'benchmark',
        problem_name: '19_ReLU',
        device: CPU.id,
        language: 'c',
        source: candidate.source,
      },
      device: CPU.id,
      session_id: sessionId,
      max_attempts: p().config.jobs.maxTries,
      dedupe_key: `evaluate:attempt:${attemptId}`,
      priority: JOB_PRIORITY.firstAttempt,
      owner_id: user.user.id,
    },
  ]);
});

test("the instruction's next attempt is created with its generate job, at a later attempt's priority", async () => {
  const created = await json<AgentSession>(
    app.request('/api/v1/agent-session', {
      method: 'POST',
      token: user.token,
      json: { problem_name: '19_ReLU', device: CPU.id, max_attempts: 2, agent: { provider: 'tuner' } },
    }),
  );
  expect(created.status).toBe(201);
  const first = created.body.generation_attempts[0];
  if (!first?.instruction_id) throw new Error('no first attempt');
  const session = await sessionRow(created.body.id);
  await p().db.transaction(async (tx) => {
    await markGenerating(p(), tx, first.id);
    await markEvaluating(p(), tx, session, first.id, candidate);
    await markCompleted(p(), tx, first.id, fakeState('benchmark', 1.5) as EvaluationState);
    await continueInstruction(p(), tx, session.id, first.instruction_id);
  });
  const attempts = await p().db.query<{ id: string; attempt_number: number; status: string }>(
    'SELECT id, attempt_number, status FROM generation_attempts WHERE session_id = $1 ORDER BY attempt_number',
    [session.id],
  );
  expect(attempts.map((a) => [a.attempt_number, a.status])).toEqual([
    [1, 'completed'],
    [2, 'queued'],
  ]);
  const second = attempts[1]?.id ?? '';
  expect(await jobsOf(second)).toEqual([
    {
      kind: 'generate',
      status: 'queued',
      payload: { attempt_id: second },
      device: null,
      session_id: session.id,
      max_attempts: p().config.jobs.maxTries,
      dedupe_key: `generate:${second}`,
      priority: JOB_PRIORITY.laterAttempt,
      owner_id: user.user.id,
    },
  ]);
});
