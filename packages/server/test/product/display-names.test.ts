// People have names: a display name chosen by the user shows on leaderboards, emails only to superusers, and a
// flagged result ranks below unflagged ones with its reasons.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.stop();
});

async function accepted(userId: string, timeMs: number, flagged: string[] = []): Promise<void> {
  const state = flagged.length ? { benchmarking_result: { review_reasons: flagged } } : null;
  await app.ctx.db.query(
    `INSERT INTO submissions (user_id, problem_name, device, language, source, status, verdict, time_ms, speedup,
       flagged_for_review, evaluation_state, finished_at)
     VALUES ($1, '19_ReLU', 'cpu-x86_64', 'c', 'void solution(){}', 'completed', 'accepted', $2, 2, $3, $4, now())`,
    [userId, timeMs, flagged.length > 0, state],
  );
}

interface Board {
  entries: {
    rank: number;
    user: { id: string; display_name: string; email?: string };
    flagged_for_review: boolean;
    review_reasons: string[];
  }[];
}

describe('display names', () => {
  it('lets a user set the name others see; the board shows it, and the email only to superusers', async () => {
    const ada = await app.createUser({ full_name: 'Ada Lovelace' });
    const anon = await app.createUser();
    await accepted(ada.user.id, 1.5);
    await accepted(anon.user.id, 2.5);

    const set = await app.request('/api/v1/users/me', {
      method: 'PATCH',
      token: ada.token,
      json: { display_name: '  The Countess  ' },
    });
    expect(set.status).toBe(200);
    expect(((await set.json()) as { display_name: string }).display_name).toBe('The Countess');
    const me = (await (await app.request('/auth/users/me', { token: ada.token })).json()) as {
      display_name: string;
    };
    expect(me.display_name).toBe('The Countess');

    const board = (await (await app.request('/api/v1/leaderboard/19_ReLU', { token: anon.token })).json()) as Board;
    const names = board.entries.map((e) => e.user.display_name);
    expect(names).toContain('The Countess');
    // No name set: the stored handle of words, the same on every read and in /auth/users/me, never the id.
    const anonMe = (await (await app.request('/auth/users/me', { token: anon.token })).json()) as { handle: string };
    expect(anonMe.handle).toMatch(/^[a-z]+-[a-z]+-\d{2}$/);
    expect(names).toContain(anonMe.handle);
    expect(JSON.stringify(board)).not.toMatch(/user-[0-9a-f]{8}/);
    expect(anonMe.handle).not.toContain(anon.user.id.slice(0, 4));
    expect(board.entries.every((e) => e.user.email === undefined)).toBe(true);
    expect(JSON.stringify(board)).not.toContain(ada.user.email);

    const asAdmin = (await (
      await app.request('/api/v1/leaderboard/19_ReLU', { token: app.admin.token })
    ).json()) as Board;
    expect(asAdmin.entries.find((e) => e.user.id === ada.user.id)?.user.email).toBe(ada.user.email);

    // An empty name clears it: the full name shows again.
    await app.request('/api/v1/users/me', { method: 'PATCH', token: ada.token, json: { display_name: '' } });
    const after = (await (await app.request('/api/v1/leaderboard/19_ReLU', { token: anon.token })).json()) as Board;
    expect(after.entries.map((e) => e.user.display_name)).toContain('Ada Lovelace');
  });

  it('refuses a name longer than 40 characters, or with a NUL, with 422', async () => {
    const u = await app.createUser();
    for (const display_name of ['x'.repeat(41), 'nul\u0000byte']) {
      const r = await app.request('/api/v1/users/me', { method: 'PATCH', token: u.token, json: { display_name } });
      expect(r.status, display_name).toBe(422);
    }
  });

  it("gives each entry its speedup's 95% interval when the runner measured one", async () => {
    const u = await app.createUser();
    await app.ctx.db.query(
      `INSERT INTO submissions (user_id, problem_name, device, language, source, status, verdict, time_ms, speedup,
         evaluation_state, finished_at)
       VALUES ($1, '19_ReLU', 'cpu-x86_64', 'c', 'void solution(){}', 'completed', 'accepted', 9, 0.998, $2, now())`,
      [u.user.id, { benchmarking_result: { speedup_interval: [0.97, 1.03], review_reasons: [] } }],
    );
    const board = (await (await app.request('/api/v1/leaderboard/19_ReLU', { token: u.token })).json()) as {
      entries: { user: { id: string }; speedup: number; speedup_interval?: [number, number] }[];
    };
    const mine = board.entries.find((e) => e.user.id === u.user.id);
    expect(mine?.speedup).toBe(0.998);
    expect(mine?.speedup_interval).toEqual([0.97, 1.03]);
    expect(board.entries.find((e) => e.user.id !== u.user.id)?.speedup_interval).toBeUndefined();
  });

  it('ranks a flagged result below every unflagged one and says why', async () => {
    const fast = await app.createUser();
    await accepted(fast.user.id, 0.01, ['speedup 150x is over 10x']);
    const board = (await (await app.request('/api/v1/leaderboard/19_ReLU', { token: fast.token })).json()) as Board;
    const flagged = board.entries.find((e) => e.user.id === fast.user.id);
    expect(flagged?.flagged_for_review).toBe(true);
    expect(flagged?.review_reasons).toEqual(['speedup 150x is over 10x']);
    expect(flagged?.rank).toBe(board.entries.length);
    expect(board.entries[0]?.flagged_for_review).toBe(false);
  });
});
