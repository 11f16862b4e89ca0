// Issue 35 ("results exportable as CSV and JSON") in real Chromium against the real server: a session's attempts, a
// leaderboard and a sweep's problems each download as CSV and as JSON, with the figures the page shows.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, openPage, startHarness } from './harness';

let h: Harness;
let token = '';
let device = '';

interface WireAttempt {
  id: string;
  attempt_number: number;
  status: string;
  source: string | null;
  evaluation_state: {
    verdict: string | null;
    benchmarking_result?: {
      optimized_time?: number;
      optimized_time_interval?: [number, number];
      speedup?: number;
    } | null;
  } | null;
}
interface WireSession {
  id: string;
  status: string;
  generation_attempts: WireAttempt[];
}

async function json<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
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

/** Clicks the button and returns the downloaded file's name and text. */
async function download(page: Page, label: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: label }).click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), text: readFileSync(path, 'utf8') };
}

/** A CSV's rows as records (the export quotes only cells with commas, quotes or line breaks). */
function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      row.push(cell.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  const [head = [], ...body] = rows;
  return body.map((r) => Object.fromEntries(head.map((k, i) => [k, r[i] ?? ''])));
}

beforeAll(async () => {
  h = await startHarness();
  token = (await h.server.createUser({ password: 'export results password' })).token;
  device = (await json<{ data: { id: string }[] }>('/api/v1/devices')).data[0]?.id ?? '';
}, 240_000);

afterAll(async () => {
  await h?.close();
});

describe('results as CSV and JSON', () => {
  let accepted: WireAttempt | undefined;

  it("downloads a session's attempts, each with the figure the table shows", async () => {
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
    accepted = session.generation_attempts.find((a) => a.evaluation_state?.verdict === 'accepted');
    expect(accepted).toBeDefined();
    const { context, page } = await openPage(h, token);
    await page.goto(`/kernels/${session.id}`);
    await page.getByTestId('attempt-row').first().waitFor();
    const csv = await download(page, 'Download the attempts as CSV');
    expect(csv.name).toMatch(/-attempts\.csv$/);
    expect(csv.text.split('\r\n')[0]).toBe(
      'attempt,status,verdict,language,best,time_ms,time_low_ms,time_high_ms,speedup,speedup_low,speedup_high,baseline_ms,not_ranked_because,created_at,attempt_id',
    );
    const rows = parseCsv(csv.text);
    expect(rows).toHaveLength(session.generation_attempts.length);
    const row = rows.find((r) => r.attempt_id === accepted?.id);
    expect(row).toMatchObject({ status: 'completed', verdict: 'accepted', language: 'c', best: 'true' });
    expect(Number(row?.time_ms)).toBe(accepted?.evaluation_state?.benchmarking_result?.optimized_time);
    const interval = accepted?.evaluation_state?.benchmarking_result?.optimized_time_interval;
    expect([row?.time_low_ms, row?.time_high_ms]).toEqual(interval ? interval.map(String) : ['', '']);

    const asJson = await download(page, 'Download the attempts as JSON');
    expect(asJson.name).toMatch(/-attempts\.json$/);
    const records = JSON.parse(asJson.text) as Record<string, unknown>[];
    expect(records).toHaveLength(session.generation_attempts.length);
    const record = records.find((r) => r.attempt_id === accepted?.id);
    expect(record).toMatchObject({ verdict: 'accepted', best: true });
    expect(record?.time_ms).toBe(accepted?.evaluation_state?.benchmarking_result?.optimized_time);
    await context.close();
  }, 400_000);

  it('downloads a leaderboard as ranked', async () => {
    const submission = await json<{ id: string }>('/api/v1/submission', {
      method: 'POST',
      json: { problem_name: '19_ReLU', device, language: 'c', source: accepted?.source },
    });
    await until(
      () => json<{ status: string }>(`/api/v1/leaderboard/submission/${submission.id}`),
      (s) => !['queued', 'evaluating'].includes(s.status),
      'the submission',
    );
    const board = await json<{ entries: { submission_id: string; rank: number; time_ms: number }[] }>(
      '/api/v1/leaderboard/19_ReLU?limit=100',
    );
    expect(board.entries.map((e) => e.submission_id)).toContain(submission.id);
    const { context, page } = await openPage(h, token);
    await page.goto('/leaderboard/19_ReLU');
    await page.getByRole('button', { name: 'Download the leaderboard as CSV' }).waitFor();
    const csv = await download(page, 'Download the leaderboard as CSV');
    expect(csv.name).toBe('19_ReLU-leaderboard.csv');
    const rows = parseCsv(csv.text);
    expect(rows.map((r) => [Number(r.rank), r.submission_id, Number(r.time_ms)])).toEqual(
      board.entries.map((e) => [e.rank, e.submission_id, e.time_ms]),
    );
    const records = JSON.parse((await download(page, 'Download the leaderboard as JSON')).text) as {
      rank: number;
      submission_id: string;
    }[];
    expect(records.map((r) => r.submission_id)).toEqual(board.entries.map((e) => e.submission_id));
    await context.close();
  }, 400_000);

  it("downloads a sweep's problems", async () => {
    const sweep = await json<{ id: string }>('/api/v1/sweep', {
      method: 'POST',
      json: {
        agent: { provider: 'tuner' },
        device,
        problems: ['19_ReLU', '20_LeakyReLU'],
        attempts_per_problem: 1,
        name: 'export, "quoted"',
      },
    });
    // Stopped at once: its problems are listed (stopped) all the same, and the machine is shared.
    await json(`/api/v1/sweep/${sweep.id}/stop`, { method: 'POST' });
    const { context, page } = await openPage(h, token);
    await page.goto(`/sweeps/${sweep.id}`);
    await page.getByRole('button', { name: "Download the sweep's problems as CSV" }).waitFor();
    const csv = await download(page, "Download the sweep's problems as CSV");
    expect(csv.name).toBe('export-quoted-problems.csv');
    const rows = parseCsv(csv.text);
    expect(rows.map((r) => r.problem)).toEqual(['19_ReLU', '20_LeakyReLU']);
    const records = JSON.parse((await download(page, "Download the sweep's problems as JSON")).text) as {
      problem: string;
      correct: boolean;
    }[];
    expect(records.map((r) => r.problem)).toEqual(['19_ReLU', '20_LeakyReLU']);
    await context.close();
  }, 120_000);
});
