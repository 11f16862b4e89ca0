// Issue 35 item 5 in real Chromium, the CLI and the real server: fast_p counts a problem for p only when its speedup's
// 95% interval lies above p, the page and `kforge sweep show` say so, KernelBench's point rule is shown beside it, a
// running sweep's badge is not red, and a sweep over a list says why it is not on /agents.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAST_P_KEYS, type Sweep } from '@kernelforge/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCli } from '../../packages/cli/test/helpers/cli';
import { type Harness, openPage, startHarness } from './harness';

let h: Harness;
let token = '';

const api = async <T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> => {
  const res = await h.server.request(path, { ...init, token });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};

beforeAll(async () => {
  h = await startHarness();
  token = (await h.server.createUser({ password: 'fast p password' })).token;
}, 240_000);

afterAll(async () => {
  await h?.close();
});

it('shows fast_p by interval and by point, says the rule on the page and in the CLI', async () => {
  const device = (await api<{ data: { id: string; kind: string }[] }>('/api/v1/devices')).data.find(
    (d) => d.kind === 'cpu',
  )?.id;
  const sweep = await api<Sweep>('/api/v1/sweep', {
    method: 'POST',
    json: { agent: { provider: 'tuner' }, device, problems: ['19_ReLU'], attempts_per_problem: 1, name: 'rule' },
  });
  const { context, page } = await openPage(h, token);
  await page.goto(`/sweeps/${sweep.id}`);
  await page.getByRole('heading', { name: 'rule', level: 1 }).waitFor();
  // A list's sweep: why it will not be on the agents leaderboard.
  expect(await page.getByTestId('sweep-not-on-agents').textContent()).toContain(
    'ranks sweeps over a named problem set',
  );
  // Under way: a sky (not rose) badge, and the shares said to be so far.
  const badge = page.getByTestId('sweep-status').locator('span').first();
  if ((await badge.textContent())?.match(/running|queued/)) {
    expect(await badge.getAttribute('class')).not.toContain('rose');
  }
  await page.getByTestId('sweep-status').getByText('completed').waitFor({ timeout: 400_000 });
  const done = await api<Sweep>(`/api/v1/sweep/${sweep.id}`);
  const cells = async (rule: string) => page.locator(`tr[data-rule="${rule}"] td[data-fast-p]`).allTextContents();
  expect(await cells('interval')).toEqual(FAST_P_KEYS.map((p) => `${(done.fast_p[p] * 100).toFixed(1)}%`));
  expect(await cells('point')).toEqual(FAST_P_KEYS.map((p) => `${(done.fast_p_point[p] * 100).toFixed(1)}%`));
  expect(await page.getByText('its interval above p').count()).toBe(1);
  expect(await page.getByText('KernelBench: its point above p').count()).toBe(1);
  expect(await page.textContent('body')).toContain('speedup’s 95% interval lies above p');
  // The figures follow the rule: the problem counts for fast_1 only when its interval's low end is above 1.
  const problem = done.problems[0];
  const low = problem?.speedup_interval?.[0] ?? problem?.speedup ?? 0;
  expect(done.fast_p['1']).toBe(problem?.correct && low > 1 ? 1 : 0);
  expect(done.fast_p_point['1']).toBe(problem?.correct && (problem.speedup ?? 0) > 1 ? 1 : 0);
  await context.close();

  const bin = await buildCli();
  const home = mkdtempSync(join(tmpdir(), 'kforge-fast-p-'));
  const shown = await new Promise<{ error: Error | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [bin, 'sweep', 'show', sweep.id],
      {
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: home,
          KFORGE_API_URL: h.server.url,
          KFORGE_TOKEN: token,
        },
        timeout: 60_000,
      },
      (error, stdout, stderr) => resolve({ error, stdout, stderr }),
    );
  });
  expect(shown.error, shown.stderr).toBeNull();
  expect(shown.stdout).toMatch(/fast_p rule:\s+a problem counts for p when its speedup's 95% interval lies above p/);
  expect(shown.stdout).toMatch(/KernelBench:\s+fast_0 \S+%.*\(its rule: the point speedup above p\)/);
}, 600_000);
