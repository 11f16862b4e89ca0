// GET /agent-session/{id} is assembled by Postgres (domain/sessions/session-json.ts): it must say exactly what getSession says.
import { AgentSession } from '@kernelforge/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { getSession as sessionFromService } from '../../src/domain/sessions/service.js';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/server.js';
import { CPU, claim, fakeState, json, postResult, registerRunner, createProductApp, waitFor } from './helpers.js';

let app: TestApp;
let user: TestUser;
let runnerId: string;

beforeAll(async () => {
  app = await createProductApp({ background: true });
  runnerId = await registerRunner(app, [CPU]);
  user = await app.createUser();
});
afterAll(() => app?.stop());

const read = (id: string, token = user.token) =>
  json<AgentSession>(app.request(`/api/v1/agent-session/${id}`, { token }));
const service = async (id: string) =>
  JSON.parse(JSON.stringify(await sessionFromService(app.ctx, { id: user.user.id, is_superuser: false }, id)));

test('the read of a session matches the service layer and the sdk schema, through every attempt outcome', async () => {
  const created = await json<AgentSession>(
    app.request('/api/v1/agent-session', {
      method: 'POST',
      token: user.token,
      json: { problem_name: '19_ReLU', device: CPU.id, max_attempts: 4, agent: { provider: 'tuner' } },
    }),
  );
  expect(created.status).toBe(201);
  const id = created.body.id;
  // Nothing completed yet: the best attempt is the first one (the agent is moving it along, so no deep compare here).
  const early = await read(id);
  expect(AgentSession.parse(early.body)).toEqual(early.body);
  expect(early.body.best_attempt?.attempt_number).toBe(1);

  // Attempts: slow, rejected (no time), fast, slow again; the best is #3 by the spec's rule.
  for (const time of [5.5, null, 1.25, 3]) {
    const job = await claim(app, runnerId, [CPU.id]);
    if (!job) throw new Error('no evaluation queued');
    await postResult(app, runnerId, job, { evaluation_state: fakeState('benchmark', time) });
  }
  await waitFor(async () => (await read(id)).body.status === 'idle', { what: 'the session to finish' });
  const { status, body } = await read(id);
  expect(status).toBe(200);
  expect(AgentSession.parse(body)).toEqual(body);
  expect(body).toEqual(await service(id));
  expect(body.generation_attempts.map((a) => a.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
  expect(body.best_attempt?.attempt_number).toBe(3);
  expect(body.generation_attempts[1]?.evaluation_state?.verdict).toBe('incorrect');
  expect(body.user_instructions).toHaveLength(1);

  // A rendering is reused only while the rows are unchanged: a starred instruction shows at once.
  const instructionId = body.user_instructions[0]?.id;
  await app.request(`/api/v1/agent-session/instruction/${instructionId}/star`, {
    method: 'POST',
    token: user.token,
  });
  const starred = await read(id);
  expect(starred.body.user_instructions[0]?.starred).toBe(true);
  expect(starred.body).toEqual(await service(id));

  // Renamed, stopped, deleted: still the same view; someone else gets a 404.
  await app.request(`/api/v1/agent-session/${id}`, {
    method: 'PATCH',
    token: user.token,
    json: { name: 'ReLU "fast"' },
  });
  await app.request(`/api/v1/agent-session/${id}`, { method: 'DELETE', token: user.token });
  const deleted = await read(id);
  expect(deleted.body.deleted_at).not.toBeNull();
  expect(deleted.body).toEqual(await service(id));
  const stranger = await app.createUser();
  expect((await read(id, stranger.token)).body).toEqual({ detail: 'Session not found' });
  expect((await read('not-a-uuid')).status).toBe(404);
  expect((await read(id, app.admin.token)).status).toBe(200);
});
