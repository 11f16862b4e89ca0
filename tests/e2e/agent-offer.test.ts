// Issue 35 ("Agent offers only 'tuner' and Model only 'Default' with no word on enabling LLM agents") in real Chromium
// against the real server with no LLM provider configured: the new-kernel and sweeps forms say why only the tuner is
// offered and what enables LLM agents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, openPage, startHarness } from './harness';

let h: Harness;
let token = '';

beforeAll(async () => {
  h = await startHarness();
  token = (await h.server.createUser({ password: 'agent offer password' })).token;
}, 240_000);

afterAll(async () => {
  await h?.close();
});

describe('the agents on offer', () => {
  it('says why only the tuner is offered, and how LLM agents are enabled', async () => {
    const { context, page } = await openPage(h, token);
    for (const path of ['/kernels/generate-kernel', '/sweeps']) {
      await page.goto(path);
      const note = page.getByTestId('agent-offer-note');
      await note.waitFor();
      const text = (await note.textContent()) ?? '';
      expect(text, path).toContain('Only the built-in tuner is offered');
      expect(text, path).toContain('KFORGE_LLM_PROVIDER');
      expect(text, path).toContain('KFORGE_LLM_API_KEY');
    }
    await context.close();
  });
});
