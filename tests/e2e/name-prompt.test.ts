// Issue 35 item 11 ("the display-name card sits below the fold on every page") in real Chromium against the real
// server: the prompt shows above the page, seen without scrolling at 1280 and 390 px, while the page's own controls
// still come first in the document (and so in the tab order).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness';

let h: Harness;
let token = '';

beforeAll(async () => {
  h = await startHarness();
  token = (await h.server.createUser()).token;
}, 240_000);

afterAll(async () => {
  await h?.close();
});

describe('the display-name prompt', () => {
  it('is seen without scrolling, above the page, and after it in the tab order', async () => {
    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ] as const) {
      const context = await h.browser.newContext({
        reducedMotion: 'reduce',
        baseURL: h.server.url,
        viewport: { width, height },
      });
      await context.addInitScript((t) => localStorage.setItem('access_token', t), token);
      const page = await context.newPage();
      for (const path of ['/kernels/generate-kernel', '/leaderboard/', '/sessions']) {
        await page.goto(path);
        const prompt = page.getByTestId('display-name-prompt');
        await prompt.waitFor();
        const h1 = page.getByRole('heading', { level: 1 }).first();
        await h1.waitFor();
        const box = await prompt.boundingBox();
        const heading = await h1.boundingBox();
        const where = `${path} at ${width} px`;
        expect(box && heading && box.y < heading.y, where).toBe(true);
        expect(box && box.y + Math.min(box.height, 120) <= height, where).toBe(true);
        // In the document after the page's heading: the page's controls are tabbed to first.
        expect(
          await page.evaluate(() => {
            const p = document.querySelector('[data-testid="display-name-prompt"]');
            const t = document.querySelector('main h1');
            return Boolean(p && t && t.compareDocumentPosition(p) & Node.DOCUMENT_POSITION_FOLLOWING);
          }),
          where,
        ).toBe(true);
      }
      await context.close();
    }
  });
});
