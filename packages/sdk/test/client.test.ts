import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  createClient,
  MemoryTokenStore,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
  TimeoutError,
  UnprocessableEntityError,
} from '../src/index.js';
import * as f from './fixtures.js';
import { json, type Recorded, startPeer } from './peer.js';

type Route = { method: string; path: string; status?: number; body: unknown };

// Every call of spec section 7 (28) and the additions, with the body the peer answers.
const routes: Route[] = [
  { method: 'POST', path: '/auth/login/access-token', body: { access_token: 'jwt-pw', token_type: 'bearer' } },
  { method: 'POST', path: '/auth/login/magic-link', body: { access_token: 'jwt-magic' } },
  { method: 'POST', path: '/auth/magic-link', body: { message: 'sent' } },
  { method: 'POST', path: '/auth/users/register/email-verification-token', body: { message: 'sent' } },
  { method: 'POST', path: '/auth/users/register', body: { token: { access_token: 'jwt-reg' }, user: f.user } },
  { method: 'POST', path: '/auth/login/google', body: { access_token: 'jwt-google' } },
  { method: 'GET', path: '/auth/users/me', body: f.user },
  { method: 'GET', path: '/api/v1/settings', body: f.settings },
  { method: 'GET', path: '/api/v1/agents', body: { data: f.settings.agents, count: 1 } },
  { method: 'POST', path: '/api/v1/agent-session', body: f.session },
  { method: 'GET', path: '/api/v1/agent-session', body: { data: [f.summary('s1')], count: 1 } },
  { method: 'POST', path: '/api/v1/agent-session/custom', body: f.session },
  { method: 'POST', path: '/api/v1/agent-session/s1/stop', body: f.session },
  { method: 'GET', path: '/api/v1/agent-session/all', body: { data: [f.summary('s1')], count: 1 } },
  { method: 'GET', path: '/api/v1/agent-session/s1', body: f.session },
  { method: 'PATCH', path: '/api/v1/agent-session/s1', body: f.session },
  { method: 'DELETE', path: '/api/v1/agent-session/s1', body: { message: 'deleted' } },
  { method: 'GET', path: '/api/v1/agent-session/s1/best-attempt', body: f.attempt(1, 1.5) },
  {
    method: 'POST',
    path: '/api/v1/agent-session/s1/attempt',
    body: { instruction: f.instruction, generation_attempts: [] },
  },
  { method: 'POST', path: '/api/v1/agent-session/s1/restore', body: f.session },
  { method: 'DELETE', path: '/api/v1/agent-session/instruction/i1', body: { message: 'deleted' } },
  { method: 'PATCH', path: '/api/v1/agent-session/instruction/i1', body: f.instruction },
  { method: 'POST', path: '/api/v1/agent-session/instruction/i1/restore', body: f.instruction },
  { method: 'POST', path: '/api/v1/agent-session/instruction/i1/stop', body: f.instruction },
  { method: 'POST', path: '/api/v1/agent-session/instruction/i1/star', body: { ...f.instruction, starred: true } },
  { method: 'DELETE', path: '/api/v1/agent-session/instruction/i1/star', body: f.instruction },
  { method: 'GET', path: '/api/v1/leaderboard/19_ReLU', body: f.leaderboard },
  { method: 'GET', path: '/api/v1/leaderboard', body: { data: [f.leaderboard], count: 1 } },
  { method: 'GET', path: '/api/v1/leaderboard/submission/sub1', body: f.submission },
  { method: 'GET', path: '/api/v1/tokens', body: { data: [f.apiToken], count: 1 } },
  { method: 'POST', path: '/api/v1/tokens', body: { ...f.apiToken, token: 'kf_abcdef' } },
  { method: 'DELETE', path: '/api/v1/tokens/t1', body: null, status: 204 },
  { method: 'POST', path: '/api/v1/submission', body: { ...f.submission, status: 'queued', rank: undefined } },
];

let peer: Awaited<ReturnType<typeof startPeer>>;
const last = (): Recorded => peer.requests.at(-1)!;

beforeAll(async () => {
  peer = await startPeer((req, res) => {
    const pathname = req.url.split('?')[0];
    const route = routes.find((r) => r.method === req.method && r.path === pathname);
    if (!route) return json(res, 404, { detail: `no route ${req.method} ${pathname}` });
    if (route.status === 204) return void res.writeHead(204).end();
    json(res, route.status ?? 200, route.body);
  });
});
afterAll(() => peer.close());

describe('one method per call, against a protocol peer', () => {
  it('signs in with a password as form data, empty values omitted, and stores the token', async () => {
    const client = createClient({ baseUrl: peer.url });
    await client.auth.loginWithPassword({ username: 'ada@example.com', password: '' });
    expect(last().headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(last().body).toBe('username=ada%40example.com');
    expect(await client.tokenStore.get()).toBe('jwt-pw');
  });

  it('runs every auth call with the documented bodies', async () => {
    const client = createClient({ baseUrl: peer.url });
    await client.auth.loginWithMagicLink({ token: 'm' });
    expect(JSON.parse(last().body)).toEqual({ token: 'm' });
    expect(await client.tokenStore.get()).toBe('jwt-magic');
    await client.auth.requestMagicLink({ email: 'a@b.co' });
    expect(JSON.parse(last().body)).toEqual({ email: 'a@b.co', application: 'kernelforge' });
    await client.auth.requestEmailVerification({ email: 'a@b.co' });
    expect(JSON.parse(last().body)).toEqual({ email: 'a@b.co', application: 'kernelforge' });
    const registered = await client.auth.register({ email_verification_token: 'v' });
    expect(registered.user.email).toBe('ada@example.com');
    expect(await client.tokenStore.get()).toBe('jwt-reg');
    await client.auth.loginWithGoogle({ id_token: 'g' });
    expect(await client.tokenStore.get()).toBe('jwt-google');
    const me = await client.auth.me();
    expect(last().headers.authorization).toBe('Bearer jwt-google');
    expect(me.is_superuser).toBe(false);
  });

  it('runs every product call on its method and path, encoding path parameters', async () => {
    const client = createClient({ baseUrl: `${peer.url}/`, token: 'kf_token' });
    const calls: Array<[() => PromiseLike<unknown>, string, string]> = [
      [() => client.settings.get(), 'GET', '/api/v1/settings'],
      [() => client.agents.list(), 'GET', '/api/v1/agents'],
      [
        () => client.sessions.create({ problem_name: '19_ReLU', device: 'cpu-x86_64' }),
        'POST',
        '/api/v1/agent-session',
      ],
      [() => client.sessions.list(), 'GET', '/api/v1/agent-session?limit=50&offset=0'],
      [
        () =>
          client.sessions.createCustom({
            name: 'mine',
            device: 'cpu-x86_64',
            problem: {
              signature: [{ name: 'n', type: 'i64', role: 'size' }],
              reference_source: 'void reference(int64_t n) {}',
              cases: { test: [{ name: 't', sizes: { n: 3 } }], benchmark: [{ name: 'b', sizes: { n: 9 } }] },
            },
          }),
        'POST',
        '/api/v1/agent-session/custom',
      ],
      [() => client.sessions.stop('s1'), 'POST', '/api/v1/agent-session/s1/stop'],
      [
        () => client.sessions.listAll({ owner_id: 'u1', problem_name: '19_ReLU' }),
        'GET',
        '/api/v1/agent-session/all?owner_id=u1&problem_name=19_ReLU&limit=50&offset=0',
      ],
      [() => client.sessions.get('s1'), 'GET', '/api/v1/agent-session/s1'],
      [() => client.sessions.update('s1', { label: 'x' }), 'PATCH', '/api/v1/agent-session/s1'],
      [() => client.sessions.delete('s1'), 'DELETE', '/api/v1/agent-session/s1'],
      [() => client.sessions.bestAttempt('s1'), 'GET', '/api/v1/agent-session/s1/best-attempt'],
      [() => client.sessions.createAttempts('s1', { instruction: 'tile' }), 'POST', '/api/v1/agent-session/s1/attempt'],
      [() => client.sessions.restore('s1'), 'POST', '/api/v1/agent-session/s1/restore'],
      [() => client.instructions.delete('i1'), 'DELETE', '/api/v1/agent-session/instruction/i1'],
      [() => client.instructions.update('i1', { name: 'n' }), 'PATCH', '/api/v1/agent-session/instruction/i1'],
      [() => client.instructions.restore('i1'), 'POST', '/api/v1/agent-session/instruction/i1/restore'],
      [() => client.instructions.stop('i1'), 'POST', '/api/v1/agent-session/instruction/i1/stop'],
      [() => client.instructions.star('i1'), 'POST', '/api/v1/agent-session/instruction/i1/star'],
      [() => client.instructions.unstar('i1'), 'DELETE', '/api/v1/agent-session/instruction/i1/star'],
      [() => client.leaderboards.get('19_ReLU'), 'GET', '/api/v1/leaderboard/19_ReLU?limit=50'],
      [() => client.leaderboards.get('19_ReLU', { limit: 100 }), 'GET', '/api/v1/leaderboard/19_ReLU?limit=100'],
      [() => client.leaderboards.list(), 'GET', '/api/v1/leaderboard?limit=3'],
      [() => client.leaderboards.submission('sub1'), 'GET', '/api/v1/leaderboard/submission/sub1'],
      [() => client.tokens.list(), 'GET', '/api/v1/tokens'],
      [() => client.tokens.create({ name: 'ci' }), 'POST', '/api/v1/tokens'],
      [() => client.tokens.revoke('t1'), 'DELETE', '/api/v1/tokens/t1'],
      [
        () => client.submissions.create({ problem_name: '19_ReLU', device: 'cpu-x86_64', language: 'c', source: 'x' }),
        'POST',
        '/api/v1/submission',
      ],
    ];
    for (const [call, method, url] of calls) {
      await call();
      expect(`${last().method} ${last().url}`).toBe(`${method} ${url}`);
      expect(last().headers.authorization).toBe('Bearer kf_token');
    }
  });

  it('encodes path parameters so an id cannot reach another route', async () => {
    const client = createClient({ baseUrl: peer.url, token: 't' });
    await expect(client.sessions.get('../all')).rejects.toBeInstanceOf(NotFoundError);
    expect(last().url).toBe('/api/v1/agent-session/..%2Fall');
  });

  it('parses bodies by their schemas', async () => {
    const client = createClient({ baseUrl: peer.url, token: 't' });
    const session = await client.sessions.get('s1');
    expect(session.best_attempt?.evaluation_state?.benchmarking_result?.optimized_time).toBe(1.5);
    const created = await client.tokens.create({ name: 'ci' });
    expect(created.token).toBe('kf_abcdef');
  });
});

describe('errors', () => {
  it('maps statuses to classes carrying the detail, and validation lists to readable text', async () => {
    const local = await startPeer((req, res) => {
      if (req.url.includes('missing')) return json(res, 404, { detail: 'Session not found' });
      if (req.url.includes('me')) return json(res, 401, { detail: 'Could not validate credentials' });
      json(res, 422, { detail: [{ loc: ['body', 'device'], msg: 'Field required', type: 'missing' }] });
    });
    const client = createClient({ baseUrl: local.url, tokenStore: new MemoryTokenStore('expired') });
    const notFound = await client.sessions.get('missing').catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect((notFound as ApiError).detail).toBe('Session not found');
    const invalid = await client.sessions.create({ problem_name: 'x', device: '' }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(UnprocessableEntityError);
    expect((invalid as ApiError).detail).toBe('device: Field required');
    // A 401 from users/me removes the stored token (spec section 7).
    await expect(client.auth.me()).rejects.toBeInstanceOf(AuthenticationError);
    expect(await client.tokenStore.get()).toBeNull();
    await local.close();
  });

  it('throws ConflictError for 409 and RateLimitError for 429 (after its retries), both ApiErrors', async () => {
    let limited = 0;
    const local = await startPeer((req, res) => {
      if (req.method === 'POST') return json(res, 409, { detail: 'Session is deleted; restore it first' });
      limited++;
      json(
        res,
        429,
        { detail: 'Daily limit of 3 submissions reached' },
        { 'retry-after': '3600', 'retry-after-ms': '1' },
      );
    });
    const client = createClient({ baseUrl: local.url, token: 't' });
    const conflict = await client.sessions.createAttempts('s1', { instruction: 'again' }).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect((conflict as ApiError).detail).toBe('Session is deleted; restore it first');
    const rate = await client.settings.get().catch((e: unknown) => e);
    expect(rate).toBeInstanceOf(RateLimitError);
    expect(rate).toMatchObject({
      status: 429,
      detail: 'Daily limit of 3 submissions reached',
      retryAfterSeconds: 3600,
    });
    expect(limited).toBe(3);
    await local.close();
  });

  it('rejects a 2xx body that breaks the contract', async () => {
    const local = await startPeer((_req, res) => json(res, 200, { id: 1 }));
    const client = createClient({ baseUrl: local.url });
    await expect(client.settings.get()).rejects.toBeInstanceOf(ResponseValidationError);
    await local.close();
  });

  it('says ConnectionError when nothing listens, after retrying', async () => {
    const local = await startPeer(() => {});
    const url = local.url;
    await local.close();
    const client = createClient({ baseUrl: url, retry: { initialDelayMs: 1 } });
    await expect(client.settings.get()).rejects.toBeInstanceOf(ConnectionError);
  });

  it('says TimeoutError when the server is too slow', async () => {
    const local = await startPeer(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 500));
      json(res, 200, f.settings);
    });
    const client = createClient({ baseUrl: local.url, timeoutMs: 50, maxRetries: 0 });
    await expect(client.settings.get()).rejects.toBeInstanceOf(TimeoutError);
    await local.close();
  });
});

describe('retries', () => {
  it('retries an idempotent call on 503 and 429 (with Retry-After), then succeeds', async () => {
    let n = 0;
    const local = await startPeer((_req, res) => {
      n++;
      if (n === 1) return json(res, 503, { detail: 'busy' });
      if (n === 2) return json(res, 429, { detail: 'slow down' }, { 'retry-after-ms': '5' });
      json(res, 200, f.settings);
    });
    const client = createClient({ baseUrl: local.url, retry: { initialDelayMs: 1 } });
    await expect(client.settings.get()).resolves.toMatchObject({ auth_server: { application_name: 'kernelforge' } });
    expect(n).toBe(3);
    await local.close();
  });

  it('gives up after the default two retries with the mapped error', async () => {
    let n = 0;
    const local = await startPeer((_req, res) => {
      n++;
      json(res, 502, { detail: 'upstream' });
    });
    const client = createClient({ baseUrl: local.url, retry: { initialDelayMs: 1 } });
    await expect(client.sessions.get('s1')).rejects.toMatchObject({ status: 502, detail: 'upstream' });
    expect(n).toBe(3);
    await local.close();
  });

  it('never retries a POST, which may not be idempotent', async () => {
    let n = 0;
    const local = await startPeer((_req, res) => {
      n++;
      json(res, 500, { detail: 'boom' });
    });
    const client = createClient({ baseUrl: local.url, retry: { initialDelayMs: 1 } });
    await expect(client.sessions.stop('s1')).rejects.toMatchObject({ status: 500 });
    expect(n).toBe(1);
    await local.close();
  });

  it('retries a GET once when the server resets the kept-alive connection it was sent on', async () => {
    // The peer answers the first GET, then resets the connection when the second arrives on it (as Node does
    // when its keep-alive timer beats the read, issue 34); the retry opens a new connection.
    const sockets = new Set<unknown>();
    const local = await startPeer((_req, res) => {
      sockets.add(res.socket);
      if (local.requests.length === 2) return void res.socket?.resetAndDestroy();
      json(res, 200, f.settings);
    });
    const client = createClient({ baseUrl: local.url, retry: { initialDelayMs: 1 } });
    await client.settings.get();
    await expect(client.settings.get()).resolves.toMatchObject({ auth_server: { application_name: 'kernelforge' } });
    expect(local.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'GET']);
    // The second GET came on the first one's connection, the retry on a new one.
    expect(sockets.size).toBe(2);
    await local.close();
  });

  it('says why when a reset is not retried: a POST, or retries turned off', async () => {
    const local = await startPeer((_req, res) => void res.socket?.resetAndDestroy());
    const client = createClient({ baseUrl: local.url, retry: { initialDelayMs: 1 } });
    const post = client.sessions.stop('s1');
    await expect(post).rejects.toBeInstanceOf(ConnectionError);
    await expect(post).rejects.toThrow(/ECONNRESET/);
    expect(local.requests).toHaveLength(1);
    await expect(client.settings.get({ maxRetries: 0 })).rejects.toThrow(
      `Could not reach ${local.url}/api/v1: fetch failed (read ECONNRESET)`,
    );
    expect(local.requests).toHaveLength(2);
    await local.close();
  });

  it('never retries a 4xx', async () => {
    let n = 0;
    const local = await startPeer((_req, res) => {
      n++;
      json(res, 404, { detail: 'Session not found' });
    });
    const client = createClient({ baseUrl: local.url });
    await expect(client.sessions.get('s1')).rejects.toBeInstanceOf(NotFoundError);
    expect(n).toBe(1);
    await local.close();
  });
});

describe('paged lists', () => {
  it('awaits to the first page and iterates every item 50 at a time', async () => {
    const total = 120;
    const local = await startPeer((req, res) => {
      const url = new URL(req.url, 'http://x');
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      const data = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) =>
        f.summary(`s${offset + i}`),
      );
      json(res, 200, { data, count: total });
    });
    const client = createClient({ baseUrl: local.url, token: 't' });
    const first = await client.sessions.list();
    expect(first.data).toHaveLength(50);
    expect(first.count).toBe(total);
    const ids = (await client.sessions.list().toArray()).map((s) => s.id);
    expect(ids).toHaveLength(total);
    expect(ids[119]).toBe('s119');
    const offsets = local.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('offset'));
    expect(offsets.slice(1)).toEqual(['0', '50', '100']);
    await local.close();
  });
});

describe('session events over SSE', () => {
  it('reads events and resumes with Last-Event-ID after the stream drops', async () => {
    let connections = 0;
    const seenLastIds: Array<string | undefined> = [];
    const local = await startPeer((req, res) => {
      connections++;
      seenLastIds.push(req.headers['last-event-id'] as string | undefined);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = (id: number) =>
        `id: ${id}\nevent: attempt.delta\ndata: ${JSON.stringify({ type: 'attempt.delta', session_id: 's1', attempt_id: `a${id}`, text: 'x' })}\n\n`;
      if (connections === 1) {
        res.write(': hello\n\n');
        res.write(event(1));
        res.write('data: {not json}\n\n');
        // An event type this client does not know (an older server's `attempt.status`) is skipped, not fatal.
        res.write(
          `event: attempt.status\ndata: ${JSON.stringify({ type: 'attempt.status', session_id: 's1', attempt_id: 'a1', status: 'evaluating' })}\n\n`,
        );
        res.end(event(2));
      } else {
        res.write('retry: 5\n\n');
        res.end(event(3));
      }
    });
    const client = createClient({ baseUrl: local.url, token: 'jwt' });
    const controller = new AbortController();
    const got: string[] = [];
    for await (const { id, event } of client.sessions.events('s1', {
      signal: controller.signal,
      reconnectDelayMs: 5,
    })) {
      got.push(`${id}:${event.type}`);
      if (got.length === 3) controller.abort();
    }
    expect(got).toEqual(['1:attempt.delta', '2:attempt.delta', '3:attempt.delta']);
    expect(seenLastIds).toEqual([undefined, '2']);
    expect(local.requests[0]?.headers.authorization).toBe('Bearer jwt');
    await local.close();
  });

  it('ends with the mapped error on a 404', async () => {
    const local = await startPeer((_req, res) => json(res, 404, { detail: 'Session not found' }));
    const client = createClient({ baseUrl: local.url, token: 'jwt' });
    const run = async () => {
      for await (const _ of client.sessions.events('nope', { reconnectDelayMs: 1 })) {
        /* no events expected */
      }
    };
    await expect(run()).rejects.toBeInstanceOf(NotFoundError);
    await local.close();
  });
});

describe('cancellation', () => {
  it('aborts a call with the caller signal and leaves no listener on a reused signal', async () => {
    const local = await startPeer(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 300));
      json(res, 200, f.settings);
    });
    const client = createClient({ baseUrl: local.url });
    const controller = new AbortController();
    const pending = client.settings.get({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 20);
    await expect(pending).rejects.toThrow('stop');
    const reused = new AbortController();
    const fast = await startPeer((_req, res) => json(res, 200, f.settings));
    const fastClient = createClient({ baseUrl: fast.url });
    const added: string[] = [];
    const removed: string[] = [];
    const add = reused.signal.addEventListener.bind(reused.signal);
    const remove = reused.signal.removeEventListener.bind(reused.signal);
    type Listen = Parameters<AbortSignal['addEventListener']>;
    reused.signal.addEventListener = ((...args: Listen) => {
      added.push(args[0]);
      return add(...args);
    }) as AbortSignal['addEventListener'];
    reused.signal.removeEventListener = ((...args: Listen) => {
      removed.push(args[0]);
      return remove(...args);
    }) as AbortSignal['removeEventListener'];
    for (let i = 0; i < 5; i++) await fastClient.settings.get({ signal: reused.signal });
    expect(added.length).toBe(5);
    expect(removed.length).toBe(5);
    await local.close();
    await fast.close();
  });
});
