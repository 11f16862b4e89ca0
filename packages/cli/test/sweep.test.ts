// `kforge sweep` against the real server and its in-process runner (the built CLI): start --wait --json, show, list,
// compare, and the --min-fast-p gate's exit 5.
import { Sweep, SweepSummary, listOf } from '@kernelforge/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildCli, isolatedHome, kforge, type RunOptions } from './helpers/cli.js';
import { createApiToken, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let home: { HOME: string; XDG_CONFIG_HOME: string };
const signedIn = (): RunOptions => ({
  env: { ...home, KFORGE_TELEMETRY: '0', KFORGE_POLL_MS: '300' },
  timeoutMs: 400_000,
});

beforeAll(async () => {
  await buildCli();
  server = await startTestServer({ localRunner: true });
  const { token } = await server.createUser({ email: 'sweep-cli@kforge.test' });
  home = isolatedHome();
  const login = await kforge(
    ['login', '--token', await createApiToken(server, token), '--api-url', server.url],
    signedIn(),
  );
  expect(login.code, login.stderr).toBe(0);
});
afterAll(() => server?.stop());

let first: Sweep;

test('sweep start --wait --json runs the tuner to a score; sweep show --json gives the same figures', async () => {
  const run = await kforge(
    [
      'sweep',
      'start',
      '19_ReLU',
      '20_LeakyReLU',
      '-n',
      '1',
      '--name',
      'cli sweep',
      '--wait',
      '--json',
      '--min-fast1',
      '0',
    ],
    signedIn(),
  );
  expect(run.code, run.stderr).toBe(0);
  first = Sweep.parse(run.json());
  expect(first.status).toBe('completed');
  expect(first.problems.map((p) => p.problem_name)).toEqual(['19_ReLU', '20_LeakyReLU']);
  expect(first.problems.every((p) => p.status === 'completed')).toBe(true);
  const show = await kforge(['sweep', 'show', first.id, '--json'], signedIn());
  expect(show.code, show.stderr).toBe(0);
  const shown = Sweep.parse(show.json());
  expect({ fast_p: shown.fast_p, problems: shown.problems, geomean: shown.geomean_speedup }).toEqual({
    fast_p: first.fast_p,
    problems: first.problems,
    geomean: first.geomean_speedup,
  });
  const table = await kforge(['sweep', 'show', first.id], signedIn());
  expect(table.code, table.stderr).toBe(0);
  expect(table.stdout).toContain(`fast_0 ${(first.fast_p['0'] * 100).toFixed(1)}%`);
  expect(table.stdout).toContain('20_LeakyReLU');
}, 420_000);

test('--min-fast-p below the score exits 5 and says which minimum was missed; list and compare show both', async () => {
  const run = await kforge(['sweep', 'start', '19_ReLU', '-n', '1', '--wait', '--min-fast-p', '5=1'], signedIn());
  expect(run.code, run.stderr).toBe(5);
  expect(run.stderr).toContain('fast_5 is 0.0%, below the minimum of 100.0%');
  expect(run.stdout).toContain('19_ReLU');
  const id = run.stdout.match(/id:\s+(\S+)/)?.[1] as string;

  const list = await kforge(['sweep', 'list', '--json'], signedIn());
  expect(list.code, list.stderr).toBe(0);
  const page = listOf(SweepSummary).parse(list.json());
  expect(page.data.map((s) => s.id)).toEqual([id, first.id]);

  const compare = await kforge(['sweep', 'compare', first.id, id, '--json'], signedIn());
  expect(compare.code, compare.stderr).toBe(0);
  const body = compare.json<{
    fast_p: { p: string; a: number; b: number }[];
    problems: { problem_name: string; a: unknown; b: unknown }[];
  }>();
  expect(body.fast_p.find((r) => r.p === '0')?.a).toBe(first.fast_p['0']);
  expect(body.problems.map((p) => [p.problem_name, p.a !== null, p.b !== null])).toEqual([
    ['19_ReLU', true, true],
    ['20_LeakyReLU', true, false],
  ]);

  const usage = await kforge(['sweep', 'start', '--min-fast1', '0.5', '--set', 'c-abi'], signedIn());
  expect(usage.code).toBe(2);
  expect(usage.stderr).toContain('need --wait');
  const bad = await kforge(['sweep', 'start', '--set', 'c-abi', '--wait', '--min-fast-p', '3=0.5'], signedIn());
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('P one of 0, 0.5, 1, 1.5, 2, 5');
}, 420_000);
