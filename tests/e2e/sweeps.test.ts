// Sweeps in real Chromium against the real server and its in-process runner: start one from the web, watch it to its
// score (the page's fast_p equals the API's), compare it with a second sweep, and the agents leaderboard page.
import { FAST_P_KEYS, type Sweep } from '@kernelforge/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Harness, openPage, shoot, startHarness } from './harness';

let h: Harness;
let token: string;

beforeAll(async () => {
  h = await startHarness();
  token = (await h.server.createUser({ full_name: 'Sweep Runner' })).token;
}, 180_000);
afterAll(async () => {
  await h?.close();
});

const api = async <T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> => {
  const res = await h.server.request(path, { ...init, token });
  expect(res.ok, `${path}: ${res.status}`).toBe(true);
  return (await res.json()) as T;
};

async function fastPCells(page: Page): Promise<string[]> {
  return Promise.all(
    FAST_P_KEYS.map(async (p) => ((await page.locator(`td[data-fast-p="${p}"]`).first().textContent()) ?? '').trim()),
  );
}

it('a sweep started from the web runs to its score; its page, the compare page and the API agree', async () => {
  // A second sweep (another instruction) runs beside the one started from the web, to compare against.
  const devices = await api<{ data: { id: string; kind: string }[] }>('/api/v1/devices');
  const device = (devices.data.find((d) => d.kind === 'cpu') as { id: string }).id;
  const other = await api<Sweep>('/api/v1/sweep', {
    method: 'POST',
    json: {
      agent: { provider: 'tuner' },
      device,
      problems: ['19_ReLU'],
      attempts_per_problem: 1,
      instruction: 'no OpenMP',
      name: 'without OpenMP',
    },
  });

  const { context, page } = await openPage(h, token);
  await page.goto('/sweeps');
  await page.getByRole('heading', { name: 'Sweeps', level: 1 }).waitFor();
  await page.getByLabel('Problems', { exact: true }).selectOption('list');
  await page.getByLabel('Problem names').fill('19_ReLU');
  await page.getByLabel('Attempts per problem').fill('1');
  await page.getByLabel(/^Name/).fill('from the web');
  await page.getByRole('button', { name: 'Start sweep' }).click();
  await page.waitForURL(/\/sweeps\/[0-9a-f-]{36}$/, { timeout: 15_000 });
  const id = new URL(page.url()).pathname.split('/').pop() as string;
  await page.getByRole('heading', { name: 'from the web', level: 1 }).waitFor();
  // Live: the page polls until the sweep is done.
  await page.getByTestId('sweep-status').getByText('completed').waitFor({ timeout: 300_000 });
  await page.getByTestId('sweep-progress').getByText('1 of 1').waitFor();
  const sweep = await api<Sweep>(`/api/v1/sweep/${id}`);
  expect(sweep.status).toBe('completed');
  expect(await fastPCells(page)).toEqual(FAST_P_KEYS.map((p) => `${(sweep.fast_p[p] * 100).toFixed(1)}%`));
  const row = page.getByRole('table', { name: 'Problems' }).getByRole('row', { name: /19_ReLU/ });
  await row.getByText(sweep.problems[0]?.correct ? 'yes' : 'no', { exact: true }).waitFor();
  await page.getByRole('img', { name: 'fast_p curve' }).waitFor();
  await shoot(page, 'sweep');

  const done = await (async () => {
    for (let i = 0; i < 600; i++) {
      const s = await api<Sweep>(`/api/v1/sweep/${other.id}`);
      if (s.status === 'completed') return s;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error('the second sweep did not complete');
  })();

  // Both in the list; tick both and compare.
  await page.goto('/sweeps');
  await page.getByLabel('Compare from the web').check();
  await page.getByLabel('Compare without OpenMP').check();
  await page.getByRole('link', { name: 'Compare the two' }).click();
  await page.getByRole('heading', { name: 'Compare sweeps', level: 1 }).waitFor();
  await page.getByRole('img', { name: 'fast_p curves of both sweeps' }).waitFor();
  const rows = page.getByRole('table', { name: 'fast_p' }).getByRole('row');
  await rows.filter({ hasText: 'A: from the web' }).waitFor();
  const bCells = await rows.filter({ hasText: 'B: without OpenMP' }).locator('td[data-fast-p]').allTextContents();
  expect(bCells).toEqual(FAST_P_KEYS.map((p) => `${(done.fast_p[p] * 100).toFixed(1)}%`));
  await page
    .getByRole('table', { name: 'Per-problem differences' })
    .getByRole('row', { name: /19_ReLU/ })
    .waitFor();
  await shoot(page, 'sweep-compare');

  // The agents leaderboard ranks sweeps of named sets; these named their problems, so it says there is none yet.
  await page
    .getByRole('navigation', { name: 'Main', exact: true })
    .getByRole('link', { name: 'Agents', exact: true })
    .click();
  await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
  await page.getByText('No completed sweep of set c-abi yet').waitFor();
  expect(h.cspViolations).toEqual([]);
  await context.close();
}, 600_000);
