// Authentication while requests pour in: requests with the same credential share the read of the user (and of the
// session for GET /agent-session/{id}), but a revoked token or a deactivated account is refused from the first request
// sent after the change, and the session's reads follow its rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

async function sessionOf(ownerId: string): Promise<string> {
  const [row] = await server.ctx.db.query<{ id: string }>(
    `INSERT INTO agent_sessions (owner_id, problem_name, name, label, device, status, agent)
     VALUES ($1, '19_ReLU', 'load', 'ReLU', 'cpu-x86_64', 'idle', '{"provider":"tuner"}') RETURNING id`,
    [ownerId],
  );
  return (row as { id: string }).id;
}

interface Sent {
  sentAt: number;
  doneAt: number;
  status: number;
  name?: string;
}

/**
 * Keeps `workers` requests in flight from before `act` until `settle` requests sent after it have been answered;
 * returns every request with when it was sent and answered, and when `act` began and ended. A request answered before
 * `act` began saw the old state; one sent after `act` ended must see the new one; those in between may see either.
 */
async function storm(
  paths: string[],
  token: string,
  act: () => Promise<void>,
  opts = { workers: 12, settle: 30 },
): Promise<{ sent: Sent[]; actStart: number; actEnd: number }> {
  const sent: Sent[] = [];
  let actStart = Number.POSITIVE_INFINITY;
  let actEnd = Number.POSITIVE_INFINITY;
  const count = (pick: (s: Sent) => boolean) => sent.filter(pick).length;
  const workers = Array.from({ length: opts.workers }, async (_, w) => {
    for (let i = w; count((s) => s.sentAt > actEnd) < opts.settle; i++) {
      const path = paths[i % paths.length] as string;
      const sentAt = performance.now();
      const r = await server.request(path, { token });
      const body = (await r.json()) as { name?: string };
      sent.push({
        sentAt,
        doneAt: performance.now(),
        status: r.status,
        ...(body.name !== undefined ? { name: body.name } : {}),
      });
    }
  });
  while (count(() => true) < opts.settle) await new Promise((r) => setTimeout(r, 5));
  actStart = performance.now();
  await act();
  actEnd = performance.now();
  await Promise.all(workers);
  return { sent, actStart, actEnd };
}

describe('authentication under concurrent requests', () => {
  it('refuses a deactivated account from the first request sent after the change, and takes it back at once', async () => {
    const bob = await server.createUser();
    const id = await sessionOf(bob.user.id);
    const paths = [`/api/v1/agent-session/${id}`, '/auth/users/me'];
    const patch = (is_active: boolean) => async () => {
      const r = await server.request(`/api/v1/users/${bob.user.id}`, {
        method: 'PATCH',
        token: server.admin.token,
        json: { is_active },
      });
      expect(r.status).toBe(200);
    };
    const off = await storm(paths, bob.token, patch(false));
    const before = off.sent.filter((s) => s.doneAt < off.actStart);
    const after = off.sent.filter((s) => s.sentAt > off.actEnd);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    expect(before.every((s) => s.status === 200)).toBe(true);
    expect(after.map((s) => s.status).filter((s) => s !== 401)).toEqual([]);

    const on = await storm(paths, bob.token, patch(true));
    const back = on.sent.filter((s) => s.sentAt > on.actEnd);
    expect(back.length).toBeGreaterThan(0);
    expect(back.map((s) => s.status).filter((s) => s !== 200)).toEqual([]);
  });

  it('refuses a revoked API token from the first request sent after the revocation', async () => {
    const carol = await server.createUser();
    const id = await sessionOf(carol.user.id);
    const created = await server.request('/api/v1/tokens', {
      method: 'POST',
      token: carol.token,
      json: { name: 'ci' },
    });
    const { id: tokenId, token } = (await created.json()) as { id: string; token: string };
    const run = await storm([`/api/v1/agent-session/${id}`, '/auth/users/me'], token, async () => {
      const r = await server.request(`/api/v1/tokens/${tokenId}`, { method: 'DELETE', token: carol.token });
      expect(r.status).toBe(200);
    });
    const before = run.sent.filter((s) => s.doneAt < run.actStart);
    const after = run.sent.filter((s) => s.sentAt > run.actEnd);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    expect(before.every((s) => s.status === 200)).toBe(true);
    expect(after.map((s) => s.status).filter((s) => s !== 401)).toEqual([]);
  });

  it("serves a session's change from the first GET sent after it, and another user's session never", async () => {
    const dan = await server.createUser();
    const eve = await server.createUser();
    const id = await sessionOf(dan.user.id);
    const run = await storm([`/api/v1/agent-session/${id}`], dan.token, async () => {
      const r = await server.request(`/api/v1/agent-session/${id}`, {
        method: 'PATCH',
        token: dan.token,
        json: { name: 'renamed' },
      });
      expect(r.status).toBe(200);
    });
    const before = run.sent.filter((s) => s.doneAt < run.actStart);
    const after = run.sent.filter((s) => s.sentAt > run.actEnd);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    expect(new Set(before.map((s) => `${s.status} ${s.name}`))).toEqual(new Set(['200 load']));
    expect(new Set(after.map((s) => `${s.status} ${s.name}`))).toEqual(new Set(['200 renamed']));
    // The owner's requests in flight at the same time do not lend eve the session.
    const theirs = await storm([`/api/v1/agent-session/${id}`], eve.token, async () => {}, { workers: 8, settle: 20 });
    expect(new Set(theirs.sent.map((s) => s.status))).toEqual(new Set([404]));
  });
});
