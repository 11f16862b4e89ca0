// Every command against the real server (with its in-process runner): JSON on stdout in the sdk's shapes,
// messages on stderr, and the documented exit codes.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AgentSession,
  AgentSessionSummary,
  ApiToken,
  CreatedApiToken,
  Device,
  GenerationAttempt,
  Leaderboard,
  LeaderboardList,
  listOf,
  NewAttemptsResponse,
  Problem,
  Submission,
  SubmissionDetail,
  User,
} from '@kernelforge/sdk';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildCli, isolatedHome, kforge, type RunOptions } from './helpers/cli.js';
import { createApiToken, startTestServer, type TestServer } from './helpers/server.js';

const RELU = `#include <stdint.h>
void solution(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
`;
const WRONG_RELU = `#include <stdint.h>
void solution(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; i++) y[i] = x[i];
}
`;

let server: TestServer;
let apiToken: string;
let email: string;
/** A signed-in home (login done once in beforeAll). */
let home: { HOME: string; XDG_CONFIG_HOME: string };

function signedIn(extra: Record<string, string> = {}): RunOptions {
  return { env: { ...home, KFORGE_TELEMETRY: '0', ...extra } };
}

beforeAll(async () => {
  await buildCli();
  server = await startTestServer({ localRunner: true });
  const { user, token } = await server.createUser({ email: 'cli@kforge.test', full_name: 'Cli User' });
  email = user.email;
  apiToken = await createApiToken(server, token);
  home = isolatedHome();
  const login = await kforge(['login', '--token', apiToken, '--api-url', server.url], signedIn());
  expect(login.code, login.stderr).toBe(0);
});

afterAll(async () => {
  await server?.stop();
});

describe('login, whoami, logout', () => {
  test('login --token verifies the token, stores it 0600 with the API URL, and prints the user as JSON', async () => {
    const env = { ...isolatedHome(), KFORGE_TELEMETRY: '0' };
    const result = await kforge(['login', '--token', apiToken, '--api-url', server.url, '--json'], { env });
    expect(result.code, result.stderr).toBe(0);
    const body = result.json<{ user: unknown; profile: string; api_url: string; credentials_path: string }>();
    expect(User.parse(body.user).email).toBe(email);
    expect(body).toMatchObject({ profile: 'default', api_url: server.url });
    expect(body.credentials_path).toBe(join(env.XDG_CONFIG_HOME, 'kforge', 'credentials', 'default'));
    expect(statSync(body.credentials_path).mode & 0o777).toBe(0o600);
    expect(readFileSync(body.credentials_path, 'utf8').trim()).toBe(apiToken);
    const configFile = join(env.XDG_CONFIG_HOME, 'kforge', 'config.json');
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(configFile, 'utf8')).profiles.default.api_url).toBe(server.url);
  });

  test('login reads a piped token from stdin and keeps profiles apart', async () => {
    const env = { ...isolatedHome(), KFORGE_TELEMETRY: '0' };
    const result = await kforge(['--profile', 'work', 'login', '--api-url', server.url], {
      env,
      input: `${apiToken}\n`,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('profile work');
    const whoamiDefault = await kforge(['whoami'], { env });
    expect(whoamiDefault.code).toBe(3);
    const whoamiWork = await kforge(['whoami', '--profile', 'work', '--json'], { env });
    expect(whoamiWork.code, whoamiWork.stderr).toBe(0);
    expect(whoamiWork.json()).toMatchObject({ profile: 'work', api_url: server.url, api_url_source: 'profile' });
  });

  test('a refused token exits 3, says what to do, and stores nothing', async () => {
    const env = { ...isolatedHome(), KFORGE_TELEMETRY: '0' };
    const result = await kforge(['login', '--token', 'kf_not-a-real-token', '--api-url', server.url], { env });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/refused that token/);
    const whoami = await kforge(['whoami'], { env });
    expect(whoami.code).toBe(3);
  });

  test('whoami says which credentials won: the stored file, or KFORGE_TOKEN over it', async () => {
    const fromFile = await kforge(['whoami', '--json'], signedIn());
    expect(fromFile.code, fromFile.stderr).toBe(0);
    const body = fromFile.json<{ user: unknown; token_source: string; credentials_path: string }>();
    expect(User.parse(body.user).email).toBe(email);
    expect(body.token_source).toBe('file');
    expect(body.credentials_path).toBe(join(home.XDG_CONFIG_HOME, 'kforge', 'credentials', 'default'));

    const fromEnv = await kforge(['whoami'], signedIn({ KFORGE_TOKEN: server.admin.token }));
    expect(fromEnv.code).toBe(0);
    expect(fromEnv.stdout).toContain(server.admin.email);
    expect(fromEnv.stdout).toContain('KFORGE_TOKEN');
    expect(fromEnv.stdout).toContain(body.credentials_path);
  });

  test('without credentials a command exits 3 with "Not signed in" and the next step', async () => {
    const env = { ...isolatedHome(), KFORGE_TELEMETRY: '0', KFORGE_API_URL: server.url };
    const result = await kforge(['sessions', 'list', '--json'], { env });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Not signed in.');
    expect(result.stderr).toContain('Run `kforge login` or set KFORGE_TOKEN.');
  });

  test('logout removes the stored token; a later command is not signed in', async () => {
    const env = { ...isolatedHome(), KFORGE_TELEMETRY: '0' };
    expect((await kforge(['login', '--token', apiToken, '--api-url', server.url], { env })).code).toBe(0);
    const out = await kforge(['logout', '--json'], { env });
    expect(out.code).toBe(0);
    expect(out.json()).toMatchObject({ profile: 'default', removed: true });
    expect((await kforge(['whoami'], { env })).code).toBe(3);
  });
});

describe('catalogue', () => {
  test('problems list and show print the API shapes; an unknown problem exits 4', async () => {
    const list = await kforge(['problems', 'list', '--json'], signedIn());
    expect(list.code, list.stderr).toBe(0);
    const problems = listOf(Problem).parse(list.json());
    expect(problems.data.map((p) => p.name)).toContain('19_ReLU');

    const show = await kforge(['problems', 'show', '19_ReLU', '--json'], signedIn());
    expect(show.code).toBe(0);
    expect(Problem.parse(show.json()).prototype).toContain('solution');

    const table = await kforge(['problems', 'list'], signedIn());
    expect(table.stdout).toMatch(/^NAME\s+LEVEL\s+BACKENDS\s+TITLE/);
    expect(table.stdout).not.toContain('\u001b[');

    const missing = await kforge(['problems', 'show', 'No_Such_Problem'], signedIn());
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/Error: /);
  });

  test('devices --json lists the cpu device', async () => {
    const result = await kforge(['devices', '--json'], signedIn());
    expect(result.code, result.stderr).toBe(0);
    const devices = listOf(Device).parse(result.json());
    expect(devices.data.some((d) => d.kind === 'cpu')).toBe(true);
  });

  test('devices shows the ISA, the theoretical FMA peak beside the measured one, and how each peak was measured', async () => {
    const result = await kforge(['devices'], signedIn());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^ID\s+KIND\s+AVAILABLE\s+RUNNERS\s+GB\/S\s+GFLOP\/S\s+FMA PEAK\s+ISA\s+NAME/);
    expect(result.stdout).toMatch(/ISA: \w+ \(.*\), \d+ vector registers of \d+ bits/);
    expect(result.stdout).toMatch(/bandwidth [\d.]+ GB\/s: best of \d+: triad/);
    expect(result.stdout).toMatch(/fp32 [\d.]+ GFLOP\/s: best of \d+: \d+ independent/);
    expect(result.stdout).toMatch(/theoretical FMA peak [\d.]+ GFLOP\/s = \d+ cores? x [\d.]+ GHz x \d+ flops\/cycle/);
    expect(result.stdout).toMatch(
      /measured \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC at load average [\d.]+ with the \S+ code path/,
    );
  });
});

describe('usage errors exit 2', () => {
  test.each([
    [['sessions', 'frobnicate']],
    [['sessions', 'show']],
    [['sessions', 'list', '--limit', 'many']],
    [['sessions', 'list', '--problem', '19_ReLU']],
    [['submit', '19_ReLU']],
    [['--no-such-flag']],
  ])('kforge %s', async (args) => {
    const result = await kforge(args, signedIn());
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/error|Error|Usage/);
  });

  test('a submit whose language cannot be told from the file name exits 2', async () => {
    const file = join(home.HOME, 'kernel.txt');
    writeFileSync(file, RELU);
    const result = await kforge(['submit', '19_ReLU', file], signedIn());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--language');
  });
});

describe('sessions', () => {
  test('start, list, show, rename, stop, delete and restore answer in the sdk shapes', async () => {
    const start = await kforge(
      ['sessions', 'start', '19_ReLU', '-n', '1', '--name', 'cli session', '--json'],
      signedIn(),
    );
    expect(start.code, start.stderr).toBe(0);
    const session = AgentSession.parse(start.json());
    expect(session).toMatchObject({ problem_name: '19_ReLU', name: 'cli session' });
    expect(session.device).toMatch(/^cpu/);

    const list = await kforge(['sessions', 'list', '--limit', '1', '--json'], signedIn());
    expect(list.code).toBe(0);
    const page = listOf(AgentSessionSummary).parse(list.json());
    expect(page.data).toHaveLength(1);
    expect(page.data[0]?.id).toBe(session.id);

    const all = await kforge(['sessions', 'list', '--all', '--json'], signedIn());
    expect(
      listOf(AgentSessionSummary)
        .parse(all.json())
        .data.map((s) => s.id),
    ).toContain(session.id);

    const show = await kforge(['sessions', 'show', session.id, '--json'], signedIn());
    expect(AgentSession.parse(show.json()).id).toBe(session.id);

    const renamed = await kforge(['sessions', 'rename', session.id, 'renamed by cli', '--json'], signedIn());
    expect(renamed.code).toBe(0);
    expect(AgentSession.parse(renamed.json()).name).toBe('renamed by cli');

    const stopped = await kforge(['sessions', 'stop', session.id, '--json'], signedIn());
    expect(stopped.code).toBe(0);
    expect(AgentSession.parse(stopped.json()).status).toBe('stopped');

    const deleted = await kforge(['sessions', 'delete', session.id, '--json'], signedIn());
    expect(deleted.code).toBe(0);
    const afterDelete = listOf(AgentSessionSummary).parse(
      (await kforge(['sessions', 'list', '--json'], signedIn())).json(),
    );
    expect(afterDelete.data.map((s) => s.id)).not.toContain(session.id);

    const restored = await kforge(['sessions', 'restore', session.id, '--json'], signedIn());
    expect(restored.code).toBe(0);
    expect(AgentSession.parse(restored.json()).deleted_at).toBeNull();
  });

  test("sessions list --everyone: a superuser sees every user's sessions, filtered; anyone else exits 3", async () => {
    const start = await kforge(
      ['sessions', 'start', '20_LeakyReLU', '-n', '1', '--name', 'seen by admin', '--json'],
      signedIn(),
    );
    expect(start.code, start.stderr).toBe(0);
    const session = AgentSession.parse(start.json());

    const refused = await kforge(['sessions', 'list', '--everyone', '--json'], signedIn());
    expect(refused.code).toBe(3);
    expect(refused.stdout).toBe('');

    const admin = await server.createUser({ email: 'admin-cli@kforge.test', is_superuser: true });
    const adminEnv = {
      env: { KFORGE_TOKEN: admin.token, KFORGE_API_URL: server.url, KFORGE_TELEMETRY: '0', ...isolatedHome() },
    };
    const byProblem = await kforge(['sessions', 'list', '--everyone', '--problem', '20_LeakyReLU', '--json'], adminEnv);
    expect(byProblem.code, byProblem.stderr).toBe(0);
    const page = listOf(AgentSessionSummary).parse(byProblem.json());
    expect(page.data.map((s) => s.id)).toContain(session.id);
    expect(page.data.every((s) => s.problem_name === '20_LeakyReLU')).toBe(true);

    const byOwner = await kforge(['sessions', 'list', '--everyone', '--owner', admin.user.id, '--json'], adminEnv);
    expect(listOf(AgentSessionSummary).parse(byOwner.json()).data).toEqual([]);

    const table = await kforge(['sessions', 'list', '--everyone'], adminEnv);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('OWNER');
    expect(table.stdout).toContain(session.owner_id);
  });

  test('sessions custom: a problem of your own from JSON and a reference file, your solution as attempt #1', async () => {
    const dir = home.HOME;
    const problem = {
      signature: [
        { name: 'x', type: 'f32*', role: 'in', shape: ['n'] },
        { name: 'y', type: 'f32*', role: 'out', shape: ['n'] },
        { name: 'n', type: 'i64', role: 'size' },
      ],
      cases: { test: [{ name: 'small', sizes: { n: 1000 } }], benchmark: [{ name: 'big', sizes: { n: 100000 } }] },
      description: 'y = 2x',
    };
    const reference =
      '#include <stdint.h>\nvoid solution(const float* x, float* y, int64_t n) { for (int64_t i = 0; i < n; i++) y[i] = 2.0f * x[i]; }\n';
    writeFileSync(join(dir, 'double.json'), JSON.stringify(problem));
    writeFileSync(join(dir, 'double_ref.c'), reference);
    writeFileSync(join(dir, 'mine.c'), reference);

    const started = await kforge(
      [
        'sessions',
        'custom',
        join(dir, 'double.json'),
        '--reference',
        join(dir, 'double_ref.c'),
        '--solution',
        join(dir, 'mine.c'),
        '-n',
        '1',
        '--json',
      ],
      signedIn(),
    );
    expect(started.code, started.stderr).toBe(0);
    const session = AgentSession.parse(started.json());
    expect(session.custom).toBe(true);
    expect(session.name).toBe('double');
    expect(session.generation_attempts[0]).toMatchObject({ attempt_number: 1, source: reference });

    // Without a reference the problem is invalid: exit 2, saying what is missing and how to give it.
    const invalid = await kforge(['sessions', 'custom', join(dir, 'double.json')], signedIn());
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('reference_source');
    expect(invalid.stderr).toContain('--reference');
    writeFileSync(join(dir, 'broken.json'), '{"signature": [');
    expect((await kforge(['sessions', 'custom', join(dir, 'broken.json')], signedIn())).code).toBe(2);
  });

  test('an unknown session exits 4', async () => {
    const result = await kforge(['sessions', 'show', '00000000-0000-4000-8000-000000000000'], signedIn());
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
  });

  test('start --watch --json waits for the real runner and prints the finished session; attempts show reads it', async () => {
    const run = await kforge(['sessions', 'start', '19_ReLU', '-n', '2', '--watch', '--json'], {
      ...signedIn({ KFORGE_WATCH_POLL_MS: '1000' }),
      timeoutMs: 170_000,
    });
    expect(run.code, run.stderr).toBe(0);
    const session = AgentSession.parse(run.json());
    expect(['idle', 'stopped']).toContain(session.status);
    expect(session.generation_attempts).toHaveLength(2);
    expect(session.generation_attempts.every((a) => ['completed', 'failed'].includes(a.status))).toBe(true);

    const source = await kforge(['attempts', 'show', session.id, '1'], signedIn());
    expect(source.code, source.stderr).toBe(0);
    expect(source.stdout).toContain('solution');
    const first = session.generation_attempts.find((a) => a.attempt_number === 1)?.source ?? '';
    expect(source.stdout).toBe(first.endsWith('\n') ? first : `${first}\n`);

    const best = await kforge(['attempts', 'show', session.id, '--best', '--json'], signedIn());
    expect(best.code).toBe(0);
    expect(GenerationAttempt.parse(best.json()).session_id).toBe(session.id);

    const bestOfShow = await kforge(['sessions', 'show', session.id, '--best', '--json'], signedIn());
    expect(GenerationAttempt.parse(bestOfShow.json()).id).toBe(GenerationAttempt.parse(best.json()).id);

    const diff = await kforge(['attempts', 'show', session.id, '2', '--diff', '--json'], signedIn());
    expect(diff.code).toBe(0);
    const body = diff.json<{ attempt: unknown; previous: unknown; diff: string }>();
    expect(GenerationAttempt.parse(body.attempt).attempt_number).toBe(2);
    expect(GenerationAttempt.parse(body.previous).attempt_number).toBe(1);
    if (body.diff) expect(body.diff).toMatch(/^--- attempt #1\n\+\+\+ attempt #2\n@@ /);

    const missing = await kforge(['attempts', 'show', session.id, '99'], signedIn());
    expect(missing.code).toBe(4);

    const table = await kforge(['sessions', 'show', session.id], signedIn());
    expect(table.stdout).toMatch(/#\s+STATUS\s+VERDICT\s+TIME\s+SPEEDUP/);

    // A new instruction queues more attempts; watch (plain lines, not a TTY) follows them to the end.
    const instruct = await kforge(['instruct', session.id, 'unroll by 4', '-n', '1', '--json'], signedIn());
    expect(instruct.code, instruct.stderr).toBe(0);
    const created = NewAttemptsResponse.parse(instruct.json());
    expect(created.instruction.text).toBe('unroll by 4');
    expect(created.generation_attempts.map((a) => a.attempt_number)).toEqual([3]);

    const watch = await kforge(['sessions', 'watch', session.id], {
      ...signedIn({ KFORGE_WATCH_POLL_MS: '1000' }),
      timeoutMs: 170_000,
    });
    expect(watch.code, watch.stderr).toBe(0);
    expect(watch.stdout).toMatch(/^#3 /m);
    expect(watch.stdout).not.toContain('\u001b[');
    expect(watch.stderr).toMatch(/Session (idle|stopped)/);
  }, 400_000);
});

describe('tokens', () => {
  test('create shows the token once; list and revoke; a revoked token is refused with exit 3', async () => {
    const create = await kforge(['tokens', 'create', 'ci', '--expires-in-days', '7', '--json'], signedIn());
    expect(create.code, create.stderr).toBe(0);
    const token = CreatedApiToken.parse(create.json());
    expect(token.token).toMatch(/^kf_/);

    const list = await kforge(['tokens', 'list', '--json'], signedIn());
    const tokens = listOf(ApiToken).parse(list.json());
    expect(tokens.data.map((t) => t.id)).toContain(token.id);
    expect(list.stdout).not.toContain(token.token);

    const plain = await kforge(['tokens', 'create', 'plain'], signedIn());
    expect(plain.stdout.trim()).toMatch(/^kf_\S+$/);

    // A CI token submits and reads, and cannot make more tokens.
    const ci = await kforge(['tokens', 'create', 'ci-only', '--scope', 'ci', '--json'], signedIn());
    expect(ci.code, ci.stderr).toBe(0);
    const ciToken = CreatedApiToken.parse(ci.json());
    expect(ciToken.scopes).toEqual(['read', 'submit']);
    expect((await kforge(['whoami'], signedIn({ KFORGE_TOKEN: ciToken.token }))).code).toBe(0);
    const minted = await kforge(['tokens', 'create', 'more'], signedIn({ KFORGE_TOKEN: ciToken.token }));
    expect(minted.code).not.toBe(0);
    expect(minted.stderr).toContain("'tokens' scope");
    const bad = await kforge(['tokens', 'create', 'x', '--scope', 'root'], signedIn());
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("Unknown scope 'root'");

    expect((await kforge(['whoami'], signedIn({ KFORGE_TOKEN: token.token }))).code).toBe(0);
    const revoke = await kforge(['tokens', 'revoke', token.id], signedIn());
    expect(revoke.code).toBe(0);
    const refused = await kforge(['whoami'], signedIn({ KFORGE_TOKEN: token.token }));
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('KFORGE_TOKEN');
  });
});

describe('submissions and leaderboards', () => {
  test('kforge test runs tests: a benchmark-mode verdict with its correctness and timings, never ranked', async () => {
    const file = join(home.HOME, 'tested-relu.c');
    writeFileSync(file, RELU);
    const plain = await kforge(['test', '19_ReLU', file], {
      ...signedIn({ KFORGE_POLL_MS: '300' }),
      timeoutMs: 170_000,
    });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/^test run: accepted/m);
    expect(plain.stdout).toMatch(/^correctness: (\d+)\/\1 cases passed$/m);
    expect(plain.stdout).toMatch(/^time: .* \(reference .*\)/m);
    expect(plain.stderr).toContain('Not ranked');

    const wrong = join(home.HOME, 'tested-wrong.c');
    writeFileSync(wrong, WRONG_RELU);
    const failed = await kforge(['test', '19_ReLU', wrong, '--json'], {
      ...signedIn({ KFORGE_POLL_MS: '300' }),
      timeoutMs: 170_000,
    });
    expect(failed.code, failed.stderr).toBe(5);
    const detail = SubmissionDetail.parse(failed.json());
    expect(detail).toMatchObject({ purpose: 'test', status: 'completed', verdict: 'incorrect', rank: null });
    expect(detail.evaluation_state?.mode).toBe('benchmark');
    expect(detail.evaluation_state?.correctness?.passed).toBe(false);

    // Test runs are listed apart from submissions, and never on the board.
    const listed = await kforge(['submissions', '--problem', '19_ReLU', '--json'], signedIn());
    expect(
      listOf(Submission)
        .parse(listed.json())
        .data.some((s) => s.purpose === 'test'),
    ).toBe(false);
    const board = await kforge(['leaderboard', '19_ReLU', '--json'], signedIn());
    const ids = Leaderboard.parse(board.json()).entries.map((e) => e.submission_id);
    expect(ids).not.toContain(detail.id);
  });

  test('submit without --wait prints the queued submission; --wait exits 5 when the kernel is wrong', async () => {
    const wrong = join(home.HOME, 'wrong.c');
    writeFileSync(wrong, WRONG_RELU);
    const queued = await kforge(['submit', '19_ReLU', wrong, '--json'], signedIn());
    expect(queued.code, queued.stderr).toBe(0);
    expect(Submission.parse(queued.json()).problem_name).toBe('19_ReLU');

    const waited = await kforge(['submit', '19_ReLU', wrong, '--wait', '--json'], {
      ...signedIn({ KFORGE_POLL_MS: '300' }),
      timeoutMs: 170_000,
    });
    expect(waited.code, waited.stderr).toBe(5);
    const detail = SubmissionDetail.parse(waited.json());
    expect(detail.status).toBe('completed');
    expect(detail.verdict).not.toBe('accepted');
    expect(detail.rank).toBeNull();

    // Plain output (not a TTY): the verdict and the runner's message, the verdict said once.
    const plain = await kforge(['submit', '19_ReLU', wrong, '--wait'], {
      ...signedIn({ KFORGE_POLL_MS: '300' }),
      timeoutMs: 170_000,
    });
    expect(plain.code).toBe(5);
    expect(plain.stdout).toMatch(/^incorrect: case \w+: output y/m);
    expect(plain.stdout).not.toContain('incorrect: incorrect');

    // They are listed, newest first, with their verdicts.
    const listed = await kforge(['submissions', '--problem', '19_ReLU', '--limit', '2', '--json'], signedIn());
    expect(listed.code, listed.stderr).toBe(0);
    const page = listOf(Submission).parse(listed.json());
    expect(page.data).toHaveLength(2);
    expect(page.count).toBeGreaterThanOrEqual(3);
    expect(page.data.every((s) => s.problem_name === '19_ReLU')).toBe(true);
    expect(page.data[0]?.verdict).toBe('incorrect');
    const table = await kforge(['submissions', '--problem', '19_ReLU'], signedIn());
    expect(table.stdout).toMatch(/RESULT/);
    expect(table.stdout).toMatch(/19_ReLU\s+cpu-\S+\s+incorrect/);
    const none = await kforge(['submissions', '--problem', '20_LeakyReLU'], signedIn());
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('No submissions to 20_LeakyReLU yet.');
  }, 300_000);

  test('leaderboard of all problems and of one, --limit and --device; an unknown problem exits 4', async () => {
    const all = await kforge(['leaderboard', '--json'], signedIn());
    expect(all.code, all.stderr).toBe(0);
    expect(LeaderboardList.parse(all.json()).data.length).toBeGreaterThan(0);

    const one = await kforge(
      ['leaderboard', '19_ReLU', '--limit', '5', '--device', 'cpu-x86_64', '--json'],
      signedIn(),
    );
    expect(one.code).toBe(0);
    expect(Leaderboard.parse(one.json()).problem_name).toBe('19_ReLU');

    const missing = await kforge(['leaderboard', 'No_Such_Problem', '--json'], signedIn());
    expect(missing.code).toBe(4);
  });

  test('a CI script with only KFORGE_TOKEN and KFORGE_API_URL: submit --wait --json, then leaderboard --json', async () => {
    const dir = isolatedHome().HOME;
    writeFileSync(join(dir, 'relu.c'), RELU);
    const bin = await buildCli();
    const script = `set -eu
node "${bin}" submit 19_ReLU relu.c --wait --json > result.json
node "${bin}" leaderboard 19_ReLU --json > board.json
`;
    writeFileSync(join(dir, 'ci.sh'), script);
    // Asynchronously: the server runs in this process and must keep answering while the script runs.
    const { execFile } = await import('node:child_process');
    const result = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      // PATH and HOME are in any CI job's environment; nothing else from this machine is passed on.
      execFile(
        'bash',
        ['ci.sh'],
        {
          cwd: dir,
          env: {
            PATH: process.env.PATH ?? '/usr/bin:/bin',
            HOME: dir,
            KFORGE_TOKEN: apiToken,
            KFORGE_API_URL: server.url,
          },
          timeout: 170_000,
        },
        (error, _stdout, stderr) => resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stderr }),
      );
    });
    expect(result.status, result.stderr).toBe(0);
    const submission = SubmissionDetail.parse(JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')));
    expect(submission.verdict).toBe('accepted');
    const board = Leaderboard.parse(JSON.parse(readFileSync(join(dir, 'board.json'), 'utf8')));
    expect(board.entries.map((e) => e.submission_id)).toContain(submission.id);
  }, 200_000);
});
