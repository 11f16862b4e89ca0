// Settings list the agents on offer: the tuner always, a configured LLM provider with its model.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({
    env: { KFORGE_LLM_PROVIDER: 'openai', KFORGE_LLM_MODEL: 'local-model', KFORGE_LLM_BASE_URL: 'http://127.0.0.1:9' },
  });
});
afterAll(async () => {
  await app?.stop();
});

it('offers the tuner and the configured LLM with its model', async () => {
  const s = (await (await app.request('/api/v1/settings')).json()) as {
    agents: Array<{ provider: string; models: string[]; default_model: string | null }>;
  };
  expect(s.agents.map((a) => a.provider)).toEqual(['tuner', 'openai']);
  expect(s.agents[1]).toEqual({ provider: 'openai', models: ['local-model'], default_model: 'local-model' });
});
