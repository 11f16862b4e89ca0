// Why is it slow (issue 37): an accepted C attempt of a tuner session on 19_ReLU, and the same kernel submitted, show
// their Profile (the roofline point beside gcc's vectorization report, the counters or why there are none, and the
// assembly of `solution` with the hot loop marked) in real Chromium, and through `kforge ... --build-facts`. Another
// user reading the submission gets its figures, never its assembly.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheNote, type EvaluationState } from '@kernelforge/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Harness, openPage, startHarness } from './harness';

let h: Harness;
let token = '';
let device = '';

interface WireAttempt {
  id: string;
  attempt_number: number;
  status: string;
  source: string | null;
  evaluation_state: EvaluationState | null;
}
interface WireSession {
  id: string;
  status: string;
  generation_attempts: WireAttempt[];
}

async function json<T>(path: string, init: RequestInit & { json?: unknown; token?: string } = {}): Promise<T> {
  const res = await h.server.request(path, { token, ...init });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 1500; i++) {
    const v = await read();
    if (done(v)) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} never finished`);
}

/** The real CLI, built (packages/cli/dist), against the harness's server (asynchronous: the server runs in this
    process). */
function kforge(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const home = mkdtempSync(join(tmpdir(), 'kforge-profile-home-'));
  const bin = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    KFORGE_API_URL: h.server.url,
    KFORGE_TOKEN: token,
  };
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  h = await startHarness();
  token = (await h.server.createUser({ password: 'profile view password' })).token;
  device = (await json<{ data: { id: string }[] }>('/api/v1/devices')).data[0]?.id ?? '';
}, 240_000);

afterAll(async () => {
  await h?.close();
});

it('an accepted tuner attempt and its submission show the Profile in Chromium and in the CLI', async () => {
  const created = await json<WireSession>('/api/v1/agent-session', {
    method: 'POST',
    json: { problem_name: '19_ReLU', device, max_attempts: 1 },
  });
  const session = await until(
    () => json<WireSession>(`/api/v1/agent-session/${created.id}`),
    (s) =>
      s.status !== 'active' &&
      s.generation_attempts.every((a) => !['queued', 'generating', 'evaluating'].includes(a.status)),
    'the tuner session',
  );
  const attempt = session.generation_attempts.find((a) => a.evaluation_state?.verdict === 'accepted');
  expect(attempt, JSON.stringify(session.generation_attempts.map((a) => a.evaluation_state?.message))).toBeDefined();
  const facts = attempt?.evaluation_state?.compile?.facts;
  expect(facts?.symbols).toContain('solution');
  expect(facts?.hot_loop).not.toBeNull();
  expect(facts?.counters.available || facts?.counters.reason).toBeTruthy();

  // The web: the attempt page's Profile.
  const { context, page } = await openPage(h, token);
  await page.goto(`/kernels/${session.id}/attempts/${attempt?.id}`);
  const profile = page.getByTestId('profile');
  await profile.waitFor({ timeout: 30_000 });
  await page.getByRole('heading', { name: 'Profile' }).waitFor();
  await profile.getByTestId('vectorization').waitFor();
  expect(await profile.getByTestId('counters').textContent()).toMatch(
    /Hardware counters: (not available here, because|\w)/,
  );
  expect(await profile.getByTestId('hot-loop').textContent()).toContain(`${facts?.hot_loop?.start_line}`);
  const asm = page.getByLabel('Assembly');
  await asm.waitFor();
  expect(await asm.textContent()).toContain('<solution>:');
  // The hot loop is marked in the code viewer (CodeMirror line decorations).
  await page.locator('.cm-kf-marked').first().waitFor();
  const marked = await page.locator('.cm-editor[data-marked]').getAttribute('data-marked');
  expect(marked).toBe(`${facts?.hot_loop?.start_line}-${facts?.hot_loop?.end_line}`);
  await context.close();

  // The CLI: the attempt's build facts.
  const shown = await kforge(['attempts', 'show', session.id, String(attempt?.attempt_number), '--build-facts']);
  expect(shown.code, shown.stderr).toBe(0);
  expect(shown.stdout).toMatch(/Hot loop:\s+assembly lines \d+-\d+/);
  expect(shown.stdout).toMatch(/Counters:\s+\S/);
  expect(shown.stdout).toMatch(/LINE\s+VECTORIZED\s+WIDTH/);
  expect(shown.stdout).toContain('<solution>:');
  expect(shown.stdout).toMatch(/^> /m);
  const asJson = await kforge([
    'attempts',
    'show',
    session.id,
    String(attempt?.attempt_number),
    '--build-facts',
    '--json',
  ]);
  expect(JSON.parse(asJson.stdout).facts.assembly).toBe(facts?.assembly);
  // Each case says where its data sat against this machine's last-level cache, as the result does.
  const cases = attempt?.evaluation_state?.benchmarking_result?.cases ?? [];
  expect(cases[0]?.cache?.llc_bytes).toBeGreaterThan(0);
  expect(JSON.parse(asJson.stdout).cache).toEqual(
    cases.map((c) => ({ case: c.name, ...(c.cache ?? {}), note: cacheNote(c) ?? null })),
  );

  // The same kernel submitted: the submission page's Profile, and `kforge submissions show --build-facts`.
  const submission = await json<{ id: string }>('/api/v1/submission', {
    method: 'POST',
    json: { problem_name: '19_ReLU', device, language: 'c', source: attempt?.source },
  });
  const done = await until(
    () =>
      json<{ status: string; evaluation_state: EvaluationState | null }>(
        `/api/v1/leaderboard/submission/${submission.id}`,
      ),
    (s) => !['queued', 'evaluating'].includes(s.status),
    'the submission',
  );
  expect(done.evaluation_state?.verdict, done.evaluation_state?.message).toBe('accepted');
  const mine = await openPage(h, token);
  await mine.page.goto(`/leaderboard/submission/${submission.id}`);
  await mine.page.getByTestId('profile').getByTestId('vectorization').waitFor({ timeout: 30_000 });
  await mine.page.locator('.cm-kf-marked').first().waitFor();
  await mine.context.close();
  const sub = await kforge(['submissions', 'show', submission.id, '--build-facts']);
  expect(sub.code, sub.stderr).toBe(0);
  expect(sub.stdout).toContain('<solution>:');

  // Another user: the figures and the roofline, the assembly and the report said to be the author's.
  const other = (await h.server.createUser({ password: 'another reader password' })).token;
  const theirs = await openPage(h, other);
  await theirs.page.goto(`/leaderboard/submission/${submission.id}`);
  const redacted = theirs.page.getByTestId('profile');
  await redacted.waitFor({ timeout: 30_000 });
  expect(await redacted.textContent()).toContain('visible to the author only');
  expect(await theirs.page.getByLabel('Assembly').count()).toBe(0);
  await theirs.context.close();
}, 420_000);
