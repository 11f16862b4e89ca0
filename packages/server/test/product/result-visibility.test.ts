// Another user's result is read by its figures (issue 31): nothing derived from its source (a compile log quoting a
// line of it, output, messages, where the source scan found something) reaches anyone but its author and superusers.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Leaderboard, SubmissionDetail } from '@kernelforge/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/server.js';
import { CPU_B, claim, fakeState, json, postResult, registerRunner, createProductApp } from './helpers.js';

const MARKER = 'kf_marker_5e7d2b';

// The line gcc quotes: an int initialised from a string is a warning by default (-Wint-conversion).
const SOURCE = `#include <stddef.h>
void solution(const float *x, float *y, size_t n) {
  int ${MARKER} = "${MARKER}";
  (void)${MARKER};
  for (size_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
`;

let app: TestApp;
let runnerId: string;
let author: TestUser;
let reader: TestUser;
let submissionId: string;

/** The real compiler's log for the source, as a runner reports it (from a file: gcc quotes the lines it warns of). */
function compileLog(source: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'kf-visibility-'));
  try {
    writeFileSync(join(dir, 'solution.c'), source);
    const cc = spawnSync('cc', ['-O2', '-c', 'solution.c', '-o', '/dev/null'], { cwd: dir, encoding: 'utf8' });
    if (cc.status !== 0) throw new Error(`cc failed: ${cc.stderr}`);
    return cc.stderr;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  app = await createProductApp();
  runnerId = await registerRunner(app, [CPU_B]);
  author = await app.createUser({ full_name: 'Author' });
  reader = await app.createUser({ full_name: 'Reader' });
  const created = await json<SubmissionDetail>(
    app.request('/api/v1/submission', {
      method: 'POST',
      token: author.token,
      json: { problem_name: '19_ReLU', device: CPU_B.id, language: 'c', source: SOURCE },
    }),
  );
  expect(created.status).toBe(201);
  submissionId = created.body.id;
  const job = await claim(app, runnerId, [CPU_B.id]);
  expect(job?.payload.target_id).toBe(submissionId);

  const log = compileLog(SOURCE);
  // gcc's warning quotes the line with the marker: the leak this test guards against.
  expect(log).toContain(`int ${MARKER} =`);
  const state = fakeState('ranked', 2);
  const bench = state.benchmarking_result as NonNullable<typeof state.benchmarking_result>;
  Object.assign(state, {
    compile: {
      ok: true,
      compiler: 'cc',
      flags: ['-O2'],
      log,
      duration_ms: 40,
      // Build facts (issue 37) name the source's functions and quote its loops: the author's only.
      facts: {
        symbols: ['solution', MARKER],
        assembly: `0000000000001000 <solution>:\n    1000:\tcall   1010 <${MARKER}>\n`,
        assembly_truncated: false,
        hot_loop: null,
        vectorization: [{ line: 5, column: 3, vectorized: false, widths: [], reasons: [`${MARKER} clobbers memory`] }],
        counters: { available: false, reason: 'not available here, because of the test' },
      },
    },
    stderr: `${MARKER} printed this`,
    benchmarking_result: {
      ...bench,
      speedup: 12,
      flagged_for_review: true,
      // The source scan's wording (runner python-scan.ts) quotes what it found; the judge's reasons are figures.
      review_reasons: [
        `line 3: a thread or process is started (${MARKER}.start): work may run outside the timed call`,
        'speedup 12.0x is over 10x',
      ],
    },
  });
  const firstCase = state.correctness.cases[0] as Record<string, unknown>;
  firstCase.message = `output y[3] is ${MARKER}`;
  const posted = await postResult(app, runnerId, job as NonNullable<typeof job>, { evaluation_state: state });
  expect(posted.status).toBe(200);
});
afterAll(() => app?.stop());

/** Every GET route of the API (from its OpenAPI document), path parameters filled with the author's ids. */
async function everyReadablePath(): Promise<string[]> {
  const doc = await json<{ paths: Record<string, Record<string, unknown>> }>(app.request('/api/v1/openapi.json'));
  const paths = Object.entries(doc.body.paths)
    .filter(([, methods]) => 'get' in methods)
    .map(([path]) =>
      path
        .replace(/\{(problem_name|name)\}/g, '19_ReLU')
        .replace(/\{user_id\}/g, author.user.id)
        .replace(/\{[a-z_]+\}/g, submissionId),
    );
  return [
    ...paths,
    `/api/v1/leaderboard/19_ReLU?device=${CPU_B.id}`,
    `/api/v1/leaderboard?device=${CPU_B.id}&limit=100`,
    `/leaderboard/submission/${submissionId}`,
    `/leaderboard/19_ReLU`,
  ];
}

async function bodyOf(path: string, token: string | undefined): Promise<string> {
  try {
    // An event stream the reader could open would never end: what it sent in a second is what counts.
    const res = await app.request(path, { ...(token ? { token } : {}), signal: AbortSignal.timeout(1500) });
    return await res.text();
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return '';
    throw error;
  }
}

test('another user reads the figures of a ranked result, and nothing of its source, on every route', async () => {
  const paths = await everyReadablePath();
  expect(paths.length).toBeGreaterThan(20);
  // Signed in as another user, and signed out.
  for (const token of [reader.token, undefined]) {
    for (const path of paths) {
      const body = await bodyOf(path, token);
      expect(body, `GET ${path}${token ? '' : ' (signed out)'}`).not.toContain(MARKER);
    }
  }

  // What the reader does get: the figures, and what was withheld said in so many words.
  const detail = await json<SubmissionDetail>(
    app.request(`/api/v1/leaderboard/submission/${submissionId}`, { token: reader.token }),
  );
  expect(detail.status).toBe(200);
  const state = detail.body.evaluation_state;
  expect(state).toMatchObject({ verdict: 'accepted', redacted: true, compile: { ok: true, log: '' } });
  expect(state?.compile?.facts).toBeUndefined();
  expect(state?.benchmarking_result).toMatchObject({ optimized_time: 2, speedup: 12, flagged_for_review: true });
  expect(state?.benchmarking_result?.review_reasons).toEqual([
    'a thread or process is started: work may run outside the timed call (where, and what exactly: visible to the author only)',
    'speedup 12.0x is over 10x',
  ]);
  expect(state?.correctness).toMatchObject({ passed: true, cases: [{ passed: true, max_abs_error: 0 }] });
  expect(state?.correctness?.cases[0]?.message).toBeUndefined();
  const board = await json<Leaderboard>(
    app.request(`/api/v1/leaderboard/19_ReLU?device=${CPU_B.id}`, { token: reader.token }),
  );
  expect(board.body.entries[0]).toMatchObject({ submission_id: submissionId, flagged_for_review: true });
});

test('the author and superusers still read the whole result', async () => {
  for (const token of [author.token, app.admin.token]) {
    const detail = await json<SubmissionDetail>(
      app.request(`/api/v1/leaderboard/submission/${submissionId}`, { token }),
    );
    expect(detail.body.evaluation_state?.redacted).toBeUndefined();
    expect(detail.body.evaluation_state?.compile?.log).toContain(`int ${MARKER} =`);
    expect(detail.body.evaluation_state?.compile?.facts?.assembly).toContain(`<${MARKER}>`);
    expect(detail.body.evaluation_state?.correctness?.cases[0]?.message).toContain(MARKER);
    const board = await json<Leaderboard>(app.request(`/api/v1/leaderboard/19_ReLU?device=${CPU_B.id}`, { token }));
    expect(board.body.entries[0]?.review_reasons[0]).toContain(MARKER);
  }
});
