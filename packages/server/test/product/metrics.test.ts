// /metrics carries the queue depth by kind and status and the runner counts, read from the shared database.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { CPU, CPU_B, claim, json, registerRunner, createProductApp } from './helpers.js';

let app: TestApp;
let runnerId: string;

beforeAll(async () => {
  app = await createProductApp();
  runnerId = await registerRunner(app, [CPU, CPU_B]);
});
afterAll(() => app?.stop());

const scrape = async () => (await app.request('/metrics', { token: app.metricsToken })).text();

test('/metrics reports queue depth per kind and status, ready jobs per device, and runners', async () => {
  const empty = await scrape();
  expect(empty).toContain('# TYPE kforge_jobs gauge');
  expect(empty).toContain('kforge_jobs{kind="evaluate",status="queued"} 0');
  expect(empty).toContain('kforge_jobs{kind="generate",status="leased"} 0');
  expect(empty).toContain('kforge_runners{state="fresh",kind="standalone"} 1');
  expect(empty).toContain('kforge_runners{state="fresh",kind="in-process"} 0');
  expect(empty).toContain(`kforge_device_runners{device="${CPU_B.id}"} 1`);

  const user = await app.createUser();
  for (let i = 0; i < 2; i++) {
    const { status } = await json(
      app.request('/api/v1/submission', {
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

  expect(await claim(app, runnerId, [CPU_B.id])).not.toBeNull();
  const leased = await scrape();
  expect(leased).toContain('kforge_jobs{kind="evaluate",status="queued"} 1');
  expect(leased).toContain('kforge_jobs{kind="evaluate",status="leased"} 1');
});
