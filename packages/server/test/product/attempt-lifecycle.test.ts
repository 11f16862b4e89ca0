// The attempt lifecycle (sessions/attempts.ts) moves an attempt only along DESIGN 3's arrows; anything else changes nothing.
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
} from '../../src/sessions/attempts.js';
import type { TestServer, TestUser } from '../helpers/server.js';
import { CPU, fakeState, json, registerRunner, startProductServer } from './helpers.js';

let server: TestServer;
let user: TestUser;

beforeAll(async () => {
  // No background work: nothing but this test moves the attempts.
  server = await startProductServer({ background: false });
  await registerRunner(server, [CPU]);
  user = await server.createUser();
});
afterAll(() => server?.stop());

async function newSession(): Promise<{ sessionId: string; attemptId: string }> {
  const created = await json<AgentSession>(
    server.request('/api/v1/agent-session', {
      method: 'POST',
      token: user.token,
      json: { problem_name: '19_ReLU', device: CPU.id, max_attempts: 1, agent: { provider: 'tuner' } },
    }),
  );
  expect(created.status).toBe(201);
  const attempt = created.body.generation_attempts[0];
  if (!attempt) throw new Error('no first attempt');
  return { sessionId: created.body.id, attemptId: attempt.id };
}

const p = () => server.ctx;
const statusOf = async (id: string) =>
  (await p().db.query<{ status: string }>('SELECT status FROM generation_attempts WHERE id = $1', [id]))[0]?.status;
const eventCount = async (sessionId: string) =>
  (
    await p().db.query<{ n: number }>('SELECT count(*)::int AS n FROM session_events WHERE session_id = $1', [
      sessionId,
    ])
  )[0]?.n;
const candidate = { source: 'void solution() {}', explanation: 'x', language: 'c' };

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
  const { sessionId, attemptId } = await newSession();
  await p().db.transaction(async (tx) => {
    expect(await markGenerating(p(), tx, attemptId)).not.toBeNull();
    expect(await markEvaluating(p(), tx, attemptId, candidate)).not.toBeNull();
    expect((await markStopped(p(), tx, [attemptId])).map((a) => a.id)).toEqual([attemptId]);
  });
  expect(await statusOf(attemptId)).toBe('stopped');
  const events = await eventCount(sessionId);

  const late = fakeState('benchmark', 1.5) as EvaluationState;
  await p().db.transaction(async (tx) => {
    expect(await markCompleted(p(), tx, attemptId, late)).toBeNull();
    expect(await markFailed(p(), tx, attemptId, 'runner lost')).toBeNull();
    expect(await markEvaluating(p(), tx, attemptId, candidate)).toBeNull();
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
  const { attemptId } = await newSession();
  await p().db.transaction(async (tx) => {
    expect(await markCompleted(p(), tx, attemptId, fakeState('benchmark', 1) as EvaluationState)).toBeNull();
    expect(await markEvaluating(p(), tx, attemptId, candidate)).toBeNull();
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
  const { sessionId, attemptId } = await newSession();
  const before = await p().bus.lastEventId(sessionId);
  const state = fakeState('benchmark', 1.5) as EvaluationState;
  await p().db.transaction(async (tx) => {
    await markGenerating(p(), tx, attemptId);
    await markGenerating(p(), tx, attemptId);
    await markEvaluating(p(), tx, attemptId, candidate);
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
