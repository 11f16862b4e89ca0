// /metrics carries the queue depth by kind and status and the runner counts, read from the shared database.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { CPU, CPU_B, claim, json, registerRunner, startProductServer } from './helpers.js';

let server: TestServer;
let runnerId: string;

beforeAll(async () => {
  server = await startProductServer();
  runnerId = await registerRunner(server, [CPU, CPU_B]);
});
afterAll(() => server?.stop());

const scrape = async () => (await server.request('/metrics', { token: server.metricsToken })).text();

test('/metrics reports queue depth per kind and status, ready jobs per device, and runners', async () => {
  const empty = await scrape();
  expect(empty).toContain('# TYPE kforge_jobs gauge');
  expect(empty).toContain('kforge_jobs{kind="evaluate",status="queued"} 0');
  expect(empty).toContain('kforge_jobs{kind="generate",status="leased"} 0');
  expect(empty).toContain('kforge_runners{state="fresh",kind="standalone"} 1');
  expect(empty).toContain('kforge_runners{state="fresh",kind="in-process"} 0');
  expect(empty).toContain(`kforge_device_runners{device="${CPU_B.id}"} 1`);

  const user = await server.createUser();
  for (let i = 0; i < 2; i++) {
    const { status } = await json(
      server.request('/api/v1/submission', {
        method: 'POST',
        token: user.token,
        json: { problem_name: '19_ReLU', device: CPU_B.id, language: 'c', source: `void solution(){} // ${i}` },
      }),
    );
    expect(status).toBe(201);
  }
  const queued = await scrape();
  expect(queued).toContain('kforge_jobs{kind="evaluate",status="queued"} 2');
  expect(queued).toContain(`kforge_jobs_ready{kind="evaluate",device="${CPU_B.id}"} 2`);

  expect(await claim(server, runnerId, [CPU_B.id])).not.toBeNull();
  const leased = await scrape();
  expect(leased).toContain('kforge_jobs{kind="evaluate",status="queued"} 1');
  expect(leased).toContain('kforge_jobs{kind="evaluate",status="leased"} 1');
});
