// A standalone runner (startRunnerLoop from @kernelforge/runner) evaluates a submission over HTTP.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverDevices, loadCatalogue, type RunnerLoopHandle, startRunnerLoop } from '@kernelforge/runner';
import type { Leaderboard, Submission } from '@kernelforge/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { json, RUNNER_TOKEN, startProductServer, waitFor } from './helpers.js';

let server: TestServer;
let runner: RunnerLoopHandle | undefined;

beforeAll(async () => {
  server = await startProductServer();
});
afterAll(async () => {
  await runner?.stop();
  await server?.stop();
});

const RELU = `#include <stdint.h>
void solution(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
`;

test('a submission is evaluated in ranked mode by a runner over the runner API and enters the leaderboard', async () => {
  const devices = discoverDevices({ workDir: join(tmpdir(), 'kforge-runner') });
  const cpu = devices.find((d) => d.kind === 'cpu');
  expect(cpu).toBeDefined();
  runner = startRunnerLoop({
    serverUrl: server.url,
    token: RUNNER_TOKEN,
    devices,
    problems: loadCatalogue(server.ctx.config.problemsDir),
    workDir: join(tmpdir(), 'kforge-runner'),
    name: 'test-runner',
    claimWaitMs: 1000,
    timing: 'quick',
    log: () => {},
  });
  const user = await server.createUser({ full_name: 'Runner Fan' });
  await waitFor(
    async () => {
      const d = await json<any>(server.request('/api/v1/devices', { token: user.token }));
      return d.body.data.some((x: { id: string; available: boolean }) => x.id === cpu?.id && x.available);
    },
    { what: 'the runner to register' },
  );
  const created = await json<Submission>(
    server.request('/api/v1/submission', {
      method: 'POST',
      token: user.token,
      json: { problem_name: '19_ReLU', device: cpu?.id, language: 'c', source: RELU },
    }),
  );
  expect(created.status).toBe(201);
  const done = await waitFor(
    async () => {
      const r = await json<any>(
        server.request(`/api/v1/leaderboard/submission/${created.body.id}`, { token: user.token }),
      );
      return r.body.status === 'completed' || r.body.status === 'failed' ? r.body : undefined;
    },
    { timeoutMs: 120_000, what: 'the ranked evaluation' },
  );
  expect(done.error ?? null).toBeNull();
  expect(done).toMatchObject({ status: 'completed', verdict: 'accepted', rank: 1 });
  expect(done.time_ms).toBeGreaterThan(0);
  expect(done.evaluation_state.mode).toBe('ranked');
  const board = await json<Leaderboard>(server.request(`/api/v1/leaderboard/19_ReLU`, { token: user.token }));
  expect(board.body.entries[0]?.submission_id).toBe(created.body.id);
});
