// Issue 35 item 9 in real Chromium at 390 px against the real server: the leaderboard's and the sweep's charts are
// drawn at their real width, so no text on those pages is under 11 px, nothing overflows, and the chosen device's
// whole id shows where the select cuts its label.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness';

let h: Harness;
let token = '';
let device = '';
let sweepId = '';

const RELU = [
  '#include <stdint.h>',
  'void solution(const float* x, float* y, int64_t n) {',
  '  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : 0.0f;',
  '}',
  '',
].join('\n');

async function json<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const res = await h.server.request(path, { token, ...init });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  h = await startHarness();
  token = (await h.server.createUser({ password: 'phone text password' })).token;
  device = (await json<{ data: { id: string }[] }>('/api/v1/devices')).data[0]?.id ?? '';
  const submission = await json<{ id: string }>('/api/v1/submission', {
    method: 'POST',
    json: { problem_name: '19_ReLU', device, language: 'c', source: RELU },
  });
  for (let i = 0; ; i++) {
    const s = await json<{ status: string }>(`/api/v1/leaderboard/submission/${submission.id}`);
    if (!['queued', 'evaluating'].includes(s.status)) break;
    if (i > 1500) throw new Error('the submission never finished');
    await new Promise((r) => setTimeout(r, 200));
  }
  const sweep = await json<{ id: string }>('/api/v1/sweep', {
    method: 'POST',
    json: { agent: { provider: 'tuner' }, device, problems: ['19_ReLU'], attempts_per_problem: 1, name: 'phone' },
  });
  sweepId = sweep.id;
  // Stopped at once: its fast_p table and curve are drawn all the same.
  await json(`/api/v1/sweep/${sweepId}/stop`, { method: 'POST' });
}, 500_000);

afterAll(async () => {
  await h?.close();
});

/** Visible text set under 11 px, SVG text included: "size text" for each element holding such text itself. */
const smallText = (page: import('playwright-core').Page) =>
  page.evaluate(() => {
    const found: string[] = [];
    for (const el of document.body.querySelectorAll<Element>('*')) {
      const own = [...el.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent?.trim() ?? '')
        .join('');
      if (!own) continue;
      const rect = el.getBoundingClientRect();
      if (rect.width <= 1 || rect.height <= 1) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      // An SVG's text is scaled with its viewBox: its rendered size is its font size times the drawing's scale.
      let size = Number.parseFloat(style.fontSize);
      if (el instanceof SVGElement && el.ownerSVGElement) {
        const svg = el.ownerSVGElement;
        const box = svg.viewBox.baseVal;
        if (box && box.width > 0) size *= svg.getBoundingClientRect().width / box.width;
      }
      if (size < 10.95) found.push(`${size.toFixed(1)}px ${own.slice(0, 40)}`);
    }
    return found;
  });

describe('phone pages', () => {
  it('keep every text at 11 px or more, and show the whole device id', async () => {
    const context = await h.browser.newContext({
      reducedMotion: 'reduce',
      baseURL: h.server.url,
      viewport: { width: 390, height: 844 },
    });
    await context.addInitScript((t) => {
      if (!sessionStorage.getItem('kf-init')) {
        sessionStorage.setItem('kf-init', '1');
        localStorage.setItem('access_token', t);
      }
    }, token);
    const page = await context.newPage();
    const problems: string[] = [];
    for (const [path, ready] of [
      ['/leaderboard/19_ReLU', '[data-testid="leader-chart"] svg'],
      [`/sweeps/${sweepId}`, 'svg[aria-label="fast_p curve"]'],
      ['/kernels/generate-kernel', '[data-testid="device-chosen"]'],
      ['/kernels/submit', '[data-testid="device-chosen"]'],
    ] as const) {
      await page.goto(path);
      await page.locator(ready).first().waitFor();
      await page.waitForTimeout(300); // the charts measure their width, then draw at it
      problems.push(...(await smallText(page)).map((t) => `${path}: ${t}`));
      const overflow = await page.evaluate(
        () => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    expect(problems).toEqual([]);
    // The whole id, not cut: on the submit page (last visited) the line beneath the select holds it and fits.
    const chosen = page.getByTestId('device-chosen').first();
    expect(await chosen.textContent()).toBe(device);
    expect(await chosen.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await context.close();
  }, 120_000);
});
