// The runner API's client (RunnerClient): its wire requests, its errors (the sdk's ApiError classes) and its failover.
import { describe, expect, it } from 'vitest';
import { ApiError, ConflictError, ConnectionError, RunnerClient, RunnerUnreachableError } from '../src/index.js';
import { json, startPeer } from './peer.js';

const TOKEN = 'runner-token';

describe('RunnerClient', () => {
  it('speaks the runner API: POST under /api/v1/runner with the runner token, bodies as given', async () => {
    const peer = await startPeer((req, res) => {
      if (req.url === '/api/v1/runner/register')
        return json(res, 200, { runner_id: 'r1', lease_seconds: 30, heartbeat_seconds: 10 });
      if (req.url === '/api/v1/runner/claim') return json(res, 200, { job: null });
      if (req.url === '/api/v1/runner/jobs/j%2F1/heartbeat')
        return json(res, 200, { lease_expires_at: '2030-01-01T00:00:00Z' });
      if (req.url === '/api/v1/runner/jobs/j%2F1/result') return json(res, 200, { message: 'Error recorded (retry)' });
      json(res, 404, { detail: 'Not Found' });
    });
    const client = new RunnerClient({ serverUrls: `${peer.url}/`, token: TOKEN });
    expect(await client.register({ name: 'box', devices: [], version: '0.1.0' })).toEqual({
      runner_id: 'r1',
      lease_seconds: 30,
      heartbeat_seconds: 10,
    });
    expect(await client.claim({ runner_id: 'r1', devices: ['cpu-x'], wait_ms: 0 })).toEqual({ job: null });
    await client.heartbeat('j/1', { runner_id: 'r1', lease_token: 'l1' });
    expect(await client.result('j/1', { runner_id: 'r1', lease_token: 'l1', error: 'no compiler' })).toEqual({
      message: 'Error recorded (retry)',
    });
    expect(peer.requests.map((r) => [r.method, r.headers.authorization, r.headers['content-type']])).toEqual(
      Array(4).fill(['POST', `Bearer ${TOKEN}`, 'application/json']),
    );
    expect(peer.requests.map((r) => JSON.parse(r.body))).toEqual([
      { name: 'box', devices: [], version: '0.1.0' },
      { runner_id: 'r1', devices: ['cpu-x'], wait_ms: 0 },
      { runner_id: 'r1', lease_token: 'l1' },
      { runner_id: 'r1', lease_token: 'l1', error: 'no compiler' },
    ]);
    await peer.close();
  });

  it('throws a 4xx as the sdk ApiError subclass, once, without asking the next server', async () => {
    const a = await startPeer((_req, res) => json(res, 409, { detail: 'Lease lost' }));
    const b = await startPeer((_req, res) => json(res, 200, { lease_expires_at: 'x' }));
    const failovers: string[] = [];
    const client = new RunnerClient({
      serverUrls: [a.url, b.url],
      token: TOKEN,
      onFailover: (failed) => failovers.push(failed),
    });
    const error = await client.heartbeat('j1', { runner_id: 'r1', lease_token: 'l1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).detail).toBe('Lease lost');
    expect(a.requests).toHaveLength(1);
    expect(b.requests).toHaveLength(0);
    expect(failovers).toEqual([]);
    await Promise.all([a.close(), b.close()]);
  });

  it('fails over on a refused connection and a 5xx, stays on the server that answered, and says when none did', async () => {
    const gone = await startPeer(() => {});
    await gone.close();
    const a = await startPeer((_req, res) => json(res, 503, { detail: 'draining' }));
    const b = await startPeer((_req, res) => json(res, 200, { lease_expires_at: 'x' }));
    const failovers: string[] = [];
    const client = new RunnerClient({
      serverUrls: [gone.url, a.url, b.url],
      token: TOKEN,
      onFailover: (failed, why, next) => failovers.push(`${failed} (${why}) -> ${next}`),
    });
    expect(await client.heartbeat('j1', { runner_id: 'r1', lease_token: 'l1' })).toEqual({ lease_expires_at: 'x' });
    expect(failovers).toEqual([
      `${gone.url} (ECONNREFUSED) -> ${a.url}`,
      `${a.url} (answered 503: draining) -> ${b.url}`,
    ]);
    expect(client.serverUrl).toBe(b.url);
    await client.heartbeat('j1', { runner_id: 'r1', lease_token: 'l1' });
    expect(a.requests).toHaveLength(1);
    expect(b.requests).toHaveLength(2);

    await b.close();
    const error = await client.heartbeat('j1', { runner_id: 'r1', lease_token: 'l1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunnerUnreachableError);
    expect(error).toBeInstanceOf(ConnectionError);
    // B's kept-alive socket may be cut (a socket error) before a new connection is refused.
    const [first, ...rest] = (error as RunnerUnreachableError).failures;
    expect(first).toMatch(new RegExp(`^${b.url}: (ECONNREFUSED|UND_ERR_SOCKET|ECONNRESET)$`));
    expect(rest).toEqual([`${gone.url}: ECONNREFUSED`, `${a.url}: answered 503: draining`]);
    await a.close();
  });

  it('does not fail over when the caller aborts', async () => {
    const slow = await startPeer(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 2000));
      json(res, 200, { job: null });
    });
    const other = await startPeer((_req, res) => json(res, 200, { job: null }));
    const failovers: string[] = [];
    const client = new RunnerClient({
      serverUrls: [slow.url, other.url],
      token: TOKEN,
      onFailover: (failed) => failovers.push(failed),
    });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    await expect(
      client.claim({ runner_id: 'r1', devices: ['cpu-x'], wait_ms: 1000 }, { signal: stop.signal }),
    ).rejects.toBeDefined();
    expect(failovers).toEqual([]);
    expect(other.requests).toHaveLength(0);
    await Promise.all([slow.close(), other.close()]);
  });
});
