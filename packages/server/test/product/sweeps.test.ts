// Sweeps (issue 24): the tuner over three C-ABI problems through the real in-process runner, scored by ranked
// re-runs; then, with a stand-in runner reporting chosen results, two named-set sweeps on the agents leaderboard,
// validation, stop, delete, list scoping and the daily session quota.
import {
  type AgentsLeaderboard,
  FAST_P_THRESHOLDS,
  type AgentSessionSummary,
  type Sweep,
  type SweepSummary,
} from '@kernelforge/sdk';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FakeLlm } from '../agents/helpers/fake-llm.js';
import type { TestServer, TestUser } from '../helpers/server.js';
import { CPU, claim, fakeState, json, postResult, registerRunner, startProductServer, waitFor } from './helpers.js';

const SMALL = ['19_ReLU', '20_LeakyReLU', '90_Matrix_transpose'];

/** fast_p as the issue defines it, from the per-problem rows (share of ALL problems). */
function expectedFastP(s: Sweep): Record<string, number> {
  const n = s.problems.length;
  return Object.fromEntries(
    FAST_P_THRESHOLDS.map((p) => [
      String(p),
      s.problems.filter((r) => r.correct && (p === 0 || (r.speedup ?? 0) > p)).length / n,
    ]),
  );
}

const getSweep = async (server: TestServer, token: string, id: string) => {
  const res = await json<Sweep>(server.request(`/api/v1/sweep/${id}`, { token }));
  expect(res.status).toBe(200);
  return res.body;
};

describe('the tuner over three C-ABI problems, evaluated by the in-process runner', () => {
  let server: TestServer;
  let user: TestUser;
  let device: string;

  beforeAll(async () => {
    server = await startProductServer({ localRunner: true });
    user = await server.createUser();
    const devices = await json<{ data: { id: string; kind: string }[] }>(
      server.request('/api/v1/devices', { token: user.token }),
    );
    device = (devices.body.data.find((d) => d.kind === 'cpu') as { id: string }).id;
  });
  afterAll(() => server?.stop());

  test('completes; each problem is scored by one ranked re-run of its best attempt; fast_p agrees with the rows', async () => {
    const created = await json<Sweep>(
      server.request('/api/v1/sweep', {
        method: 'POST',
        token: user.token,
        json: { agent: { provider: 'tuner' }, device, problems: SMALL, attempts_per_problem: 2 },
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body.problem_count).toBe(3);
    expect(created.body.problems.map((p) => p.problem_name)).toEqual(SMALL);
    expect(['queued', 'running']).toContain(created.body.status);
    expect(created.body.fast_p['0']).toBe(0);

    // Ordinary sessions, one per problem, in the caller's list.
    const sessions = await json<{ data: AgentSessionSummary[] }>(
      server.request('/api/v1/agent-session', { token: user.token }),
    );
    const ids = created.body.problems.map((p) => p.session_id);
    expect(sessions.body.data.map((s) => s.id).sort()).toEqual([...ids].sort());

    const done = await waitFor(
      async () => {
        const s = await getSweep(server, user.token, created.body.id);
        return s.status === 'completed' ? s : undefined;
      },
      { timeoutMs: 420_000, intervalMs: 500, what: 'the sweep to complete' },
    );
    expect(done.problems_done).toBe(3);
    for (const p of done.problems) {
      expect(p.status).toBe('completed');
      const session = await json<{ generation_attempts: { id: string }[]; best_attempt: { id: string } }>(
        server.request(`/api/v1/agent-session/${p.session_id}`, { token: user.token }),
      );
      expect(session.body.generation_attempts).toHaveLength(2);
      expect(p.best_attempt_id).toBe(session.body.best_attempt.id);
      if (p.correct) expect(p.speedup).toBeGreaterThan(0);
      else expect(p.speedup).toBeNull();
    }
    // The tuner gets the small elementwise problems right.
    expect(done.problems.filter((p) => p.correct).length).toBeGreaterThanOrEqual(2);

    // The figures come from ranked jobs (the leaderboard's secret seed), one per accepted best attempt.
    const jobs = await server.ctx.db.query<{ target: string; mode: string; seeded: boolean; status: string }>(
      `SELECT payload->>'target_id' AS target, payload->>'mode' AS mode, payload ? 'secret_seed' AS seeded, status
       FROM jobs WHERE kind = 'evaluate' AND payload->>'kind' = 'sweep'`,
    );
    expect(jobs.length, JSON.stringify(done.problems)).toBe(
      done.problems.filter((p) => p.verdict === 'accepted' || p.correct).length,
    );
    expect(jobs.length).toBeGreaterThanOrEqual(2);
    for (const j of jobs) expect([j.mode, j.seeded, j.status]).toEqual(['ranked', true, 'done']);

    expect(done.fast_p).toEqual(expectedFastP(done));
    expect(done.fast_p['0']).toBeGreaterThan(0);
    const correct = done.problems.filter((p) => p.correct).map((p) => p.speedup as number);
    const geomean = Math.exp(correct.reduce((a, x) => a + Math.log(x), 0) / correct.length);
    expect(done.geomean_speedup).toBeCloseTo(geomean, 10);
    expect(done.token_usage).toEqual({ input_tokens: 0, output_tokens: 0 });
  }, 480_000);
});

describe('named sets, the agents leaderboard, validation, stop, delete, scoping and quota (stand-in runner)', () => {
  let server: TestServer;
  let runnerId: string;
  let first: TestUser;
  let second: TestUser;
  const sweeps: Record<string, Sweep> = {};

  beforeAll(async () => {
    server = await startProductServer({ env: { KFORGE_DAILY_SESSIONS: '20' } });
    runnerId = await registerRunner(server, [CPU]);
    first = await server.createUser();
    second = await server.createUser();
  });
  afterAll(() => server?.stop());

  const start = (user: TestUser, body: Record<string, unknown>) =>
    json<Sweep & { detail?: unknown }>(
      server.request('/api/v1/sweep', {
        method: 'POST',
        token: user.token,
        json: { agent: { provider: 'tuner' }, device: CPU.id, attempts_per_problem: 1, ...body },
      }),
    );

  test('two c-abi sweeps run to completion and both configurations are on the agents leaderboard', async () => {
    const a = await start(first, { problems: { set: 'c-abi' }, name: 'plain' });
    const b = await start(second, { problems: { set: 'c-abi' }, instruction: 'Use OpenMP', name: 'omp' });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.set).toBe('c-abi');
    expect(a.body.problem_count).toBeGreaterThanOrEqual(10);
    // The stand-in runner answers: every attempt accepted; the ranked re-runs of the first sweep accept every other
    // problem at 2x, the second's all at 3x.
    const bIds = new Set(b.body.problems.map((p) => p.session_id));
    let n = 0;
    await waitFor(
      async () => {
        const job = await claim(server, runnerId, [CPU.id], 200);
        if (job) {
          let state = fakeState(job.payload.mode as 'benchmark' | 'ranked', 1);
          if (job.payload.kind === 'sweep') {
            const [row] = await server.ctx.db.query<{ session_id: string }>(
              'SELECT session_id FROM sweep_problems WHERE id = $1',
              [job.payload.target_id],
            );
            const ofB = bIds.has(row?.session_id ?? '');
            state = fakeState('ranked', ofB || n++ % 2 === 0 ? 1 : null);
            if (state.benchmarking_result) state.benchmarking_result.speedup = ofB ? 3 : 2;
          }
          expect((await postResult(server, runnerId, job, { evaluation_state: state })).status).toBe(200);
        }
        const [sa, sb] = [
          await getSweep(server, first.token, a.body.id),
          await getSweep(server, second.token, b.body.id),
        ];
        return sa.status === 'completed' && sb.status === 'completed' ? ([sa, sb] as const) : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 0, what: 'both sweeps to complete' },
    ).then(([sa, sb]) => {
      sweeps.a = sa;
      sweeps.b = sb;
    });
    const { a: sa, b: sb } = sweeps as { a: Sweep; b: Sweep };
    expect(sa.fast_p).toEqual(expectedFastP(sa));
    expect(sa.fast_p['0']).toBeCloseTo(Math.ceil(sa.problem_count / 2) / sa.problem_count, 10);
    expect(sa.fast_p['2']).toBe(0);
    expect(sa.geomean_speedup).toBeCloseTo(2, 10);
    expect(sb.fast_p).toEqual({ '0': 1, '0.5': 1, '1': 1, '1.5': 1, '2': 1, '5': 0 });

    const board = await json<AgentsLeaderboard>(
      server.request('/api/v1/agents/leaderboard?set=c-abi', { token: first.token }),
    );
    expect(board.status).toBe(200);
    expect(board.body.data.map((r) => [r.rank, r.sweep_id, r.instruction])).toEqual([
      [1, sb.id, 'Use OpenMP'],
      [2, sa.id, null],
    ]);
    expect(board.body.data[1]?.fast_p).toEqual(sa.fast_p);
    const other = await json<AgentsLeaderboard>(
      server.request('/api/v1/agents/leaderboard?set=pytorch-level1', { token: first.token }),
    );
    expect(other.body.data).toEqual([]);
    const bad = await json<{ detail: { msg: string }[] }>(
      server.request('/api/v1/agents/leaderboard?set=nope', { token: first.token }),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]?.msg).toContain("Unknown problem set 'nope'");
  });

  test('a sweep that would pass the daily session quota is refused up front, saying by how much', async () => {
    // `first` has 13-odd sessions today of 20: another c-abi sweep is over by the difference.
    const before = await server.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM agent_sessions WHERE owner_id = $1',
      [first.user.id],
    );
    const used = before[0]?.n ?? 0;
    const res = await server.request('/api/v1/sweep', {
      method: 'POST',
      token: first.token,
      json: { agent: { provider: 'tuner' }, device: CPU.id, attempts_per_problem: 1, problems: { set: 'c-abi' } },
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const { detail } = (await res.json()) as { detail: string };
    expect(detail).toContain(`${used + (sweeps.a as Sweep).problem_count - 20} over the limit`);
    const after = await server.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM agent_sessions WHERE owner_id = $1',
      [first.user.id],
    );
    expect(after[0]?.n).toBe(used);
  });

  test('bad bodies are 422 with a detail saying what to fix', async () => {
    const user = await server.createUser();
    const cases: [Record<string, unknown>, string][] = [
      [{ problems: { set: 'level9' } }, "Unknown problem set 'level9'"],
      [{ problems: ['19_ReLU', 'No_such_problem'] }, 'Unknown problem(s): No_such_problem'],
      [{ problems: ['19_ReLU', '19_ReLU'] }, 'listed twice: 19_ReLU'],
      [{ problems: ['19_ReLU'], device: 'cpu-nowhere' }, "Unknown device 'cpu-nowhere'"],
      [{ problems: ['19_ReLU'], agent: { provider: 'nobody' } }, "Unknown agent 'nobody'"],
    ];
    for (const [body, msg] of cases) {
      const res = await start(user, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(res.body.detail)).toContain(msg);
    }
    for (const body of [{ problems: [] }, { problems: ['19_ReLU'], attempts_per_problem: 0 }, { problems: 'c-abi' }]) {
      expect((await start(user, body)).status, JSON.stringify(body)).toBe(422);
    }
    const none = await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sweeps WHERE owner_id = $1', [
      user.user.id,
    ]);
    expect(none[0]?.n).toBe(0);
    expect((await server.request('/api/v1/sweep', { method: 'POST', json: {} })).status).toBe(401);
  });

  test('stop stops every session; delete hides the sweep and its sessions; lists are scoped to their owner', async () => {
    const user = await server.createUser();
    const created = await start(user, { problems: ['19_ReLU', '20_LeakyReLU'], attempts_per_problem: 3 });
    expect(created.status).toBe(201);
    const stopped = await json<Sweep>(
      server.request(`/api/v1/sweep/${created.body.id}/stop`, { method: 'POST', token: user.token }),
    );
    expect(stopped.status).toBe(200);
    expect(stopped.body.status).toBe('stopped');
    expect(stopped.body.problems.map((p) => p.status)).toEqual(['stopped', 'stopped']);
    expect(stopped.body.fast_p['0']).toBe(0);
    for (const p of stopped.body.problems) {
      const s = await json<{ status: string }>(
        server.request(`/api/v1/agent-session/${p.session_id}`, { token: user.token }),
      );
      expect(s.body.status).toBe('stopped');
    }
    // Another user sees neither the sweep nor it in their list; a superuser sees every sweep.
    expect((await server.request(`/api/v1/sweep/${created.body.id}`, { token: first.token })).status).toBe(404);
    const mine = await json<{ data: SweepSummary[]; count: number }>(
      server.request('/api/v1/sweep', { token: user.token }),
    );
    expect(mine.body.data.map((s) => s.id)).toEqual([created.body.id]);
    expect(mine.body.data[0]).not.toHaveProperty('problems');
    const theirs = await json<{ data: SweepSummary[] }>(server.request('/api/v1/sweep', { token: first.token }));
    expect(theirs.body.data.map((s) => s.id)).toEqual([(sweeps.a as Sweep).id]);
    const admin = await server.createUser({ is_superuser: true });
    const all = await json<{ data: SweepSummary[]; count: number }>(
      server.request('/api/v1/sweep', { token: admin.token }),
    );
    expect(all.body.count).toBe(3);
    expect(all.body.data.map((s) => s.id)).toContain(created.body.id);

    const deleted = await json<{ message: string }>(
      server.request(`/api/v1/sweep/${created.body.id}`, { method: 'DELETE', token: user.token }),
    );
    expect(deleted).toEqual({ status: 200, body: { message: 'Sweep deleted' } });
    expect((await server.request(`/api/v1/sweep/${created.body.id}`, { token: user.token })).status).toBe(404);
    const left = await json<{ data: SweepSummary[] }>(server.request('/api/v1/sweep', { token: user.token }));
    expect(left.body.data).toEqual([]);
    const sessions = await json<{ data: unknown[] }>(server.request('/api/v1/agent-session', { token: user.token }));
    expect(sessions.body.data).toEqual([]);
    expect((await server.request('/api/v1/sweep/not-a-uuid', { token: user.token })).status).toBe(404);
  });

  test('an admin saves a named set; users sweep it by name; deleting it leaves its sweeps whole', async () => {
    const admin = await server.createUser({ is_superuser: true });
    const user = await server.createUser();
    const put = (who: TestUser, name: string, problems: unknown) =>
      json<{ name: string; builtin: boolean; problems: string[]; detail?: unknown }>(
        server.request(`/api/v1/sweep-set/${name}`, { method: 'PUT', token: who.token, json: { problems } }),
      );
    expect((await put(user, 'tiny', ['19_ReLU'])).status).toBe(403);
    const bad = await put(admin, 'tiny', ['19_ReLU', 'No_such_problem']);
    expect([bad.status, JSON.stringify(bad.body.detail)]).toEqual([422, expect.stringContaining('No_such_problem')]);
    expect((await put(admin, 'c-abi', ['19_ReLU'])).status).toBe(422);
    expect((await put(admin, 'Bad Name', ['19_ReLU'])).status).toBe(422);
    const saved = await put(admin, 'tiny', ['19_ReLU', '20_LeakyReLU']);
    expect(saved).toEqual({
      status: 200,
      body: { name: 'tiny', builtin: false, problems: ['19_ReLU', '20_LeakyReLU'] },
    });
    const sets = await json<{ data: { name: string; builtin: boolean; problems: string[] }[] }>(
      server.request('/api/v1/sweep-set', { token: user.token }),
    );
    expect(sets.body.data.map((s) => [s.name, s.builtin])).toEqual([
      ['c-abi', true],
      ['pytorch-level1', true],
      ['pytorch-level2', true],
      ['pytorch-level3', true],
      ['tiny', false],
    ]);
    expect(sets.body.data[0]?.problems).toContain('19_ReLU');

    const created = await start(user, { problems: { set: 'tiny' } });
    expect(created.status).toBe(201);
    expect([created.body.set, created.body.problems.map((p) => p.problem_name)]).toEqual([
      'tiny',
      ['19_ReLU', '20_LeakyReLU'],
    ]);
    const board = await json<AgentsLeaderboard>(
      server.request('/api/v1/agents/leaderboard?set=tiny', { token: user.token }),
    );
    expect([board.status, board.body.data]).toEqual([200, []]);
    expect(
      (await server.request(`/api/v1/sweep/${created.body.id}/stop`, { method: 'POST', token: user.token })).status,
    ).toBe(200);

    expect((await server.request('/api/v1/sweep-set/tiny', { method: 'DELETE', token: admin.token })).status).toBe(200);
    expect((await server.request('/api/v1/sweep-set/tiny', { method: 'DELETE', token: admin.token })).status).toBe(404);
    const gone = await start(user, { problems: { set: 'tiny' } });
    expect([gone.status, JSON.stringify(gone.body.detail)]).toEqual([
      422,
      expect.stringContaining("Unknown problem set 'tiny'"),
    ]);
    expect((await getSweep(server, user.token, created.body.id)).problems).toHaveLength(2);
  });
});

describe('an LLM agent in a sweep', () => {
  const llm = new FakeLlm();
  let server: TestServer;
  let runnerId: string;

  beforeAll(async () => {
    await llm.start();
    server = await startProductServer({
      env: { KFORGE_LLM_PROVIDER: 'openai', KFORGE_LLM_BASE_URL: `${llm.url}/v1`, KFORGE_LLM_MODEL: 'local-model' },
    });
    runnerId = await registerRunner(server, [CPU]);
  });
  afterAll(async () => {
    await server?.stop();
    await llm.stop();
  });

  test("runs like the tuner, and the sweep sums its sessions' token usage", async () => {
    const code =
      '#include <stdint.h>\nvoid solution(const float* x, float* y, int64_t n) { for (int64_t i = 0; i < n; i++) y[i] = x[i]; }';
    const reply = (input: number, output: number) => ({
      kind: 'text' as const,
      text: `A kernel.\n\n\`\`\`c\n${code}\n\`\`\``,
      usage: { input, output },
    });
    llm.queue(reply(100, 10), reply(200, 20));
    const user = await server.createUser();
    const created = await json<Sweep>(
      server.request('/api/v1/sweep', {
        method: 'POST',
        token: user.token,
        json: {
          agent: { provider: 'openai' },
          device: CPU.id,
          problems: ['19_ReLU', '20_LeakyReLU'],
          attempts_per_problem: 1,
        },
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body.agent).toEqual({ provider: 'openai', model: 'local-model' });
    // The stand-in runner accepts every attempt and every ranked re-run at 1.5x.
    const done = await waitFor(
      async () => {
        const job = await claim(server, runnerId, [CPU.id], 200);
        if (job) {
          const state = fakeState(job.payload.mode as 'benchmark' | 'ranked', 1);
          if (state.benchmarking_result) state.benchmarking_result.speedup = 1.5;
          expect((await postResult(server, runnerId, job, { evaluation_state: state })).status).toBe(200);
        }
        const s = await getSweep(server, user.token, created.body.id);
        return s.status === 'completed' ? s : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 0, what: 'the LLM sweep to complete' },
    );
    expect(llm.seen).toHaveLength(2);
    expect(done.token_usage).toEqual({ input_tokens: 300, output_tokens: 30 });
    expect(done.fast_p).toEqual({ '0': 1, '0.5': 1, '1': 1, '1.5': 0, '2': 0, '5': 0 });
    expect(done.geomean_speedup).toBeCloseTo(1.5, 10);
  });
});
