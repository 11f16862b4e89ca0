// Issue 35 item 7 in real Chromium against the real server: deleting a session asks first and offers Undo, and a
// deleted session is listed under /sessions?deleted=1 (linked from the sessions list, even when nothing else is
// left there) and restored from there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, openPage, startHarness } from './harness';

let h: Harness;
let token = '';
let sessionId = '';

async function json<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const res = await h.server.request(path, { token, ...init });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const deletedAt = async () =>
  (await json<{ deleted_at: string | null }>(`/api/v1/agent-session/${sessionId}`)).deleted_at;

beforeAll(async () => {
  h = await startHarness();
  token = (await h.server.createUser({ password: 'deleted sessions password' })).token;
  const device = (await json<{ data: { id: string }[] }>('/api/v1/devices')).data[0]?.id ?? '';
  sessionId = (
    await json<{ id: string }>('/api/v1/agent-session', {
      method: 'POST',
      json: { problem_name: '19_ReLU', device, max_attempts: 1 },
    })
  ).id;
  // Stopped at once: deleting and restoring need no attempts, and the machine is shared.
  await json(`/api/v1/agent-session/${sessionId}/stop`, { method: 'POST' });
}, 240_000);

afterAll(async () => {
  await h?.close();
});

describe('deleted sessions', () => {
  it('asks before deleting, and Undo in the toast brings the session back', async () => {
    const { context, page } = await openPage(h, token);
    await page.goto(`/kernels/${sessionId}`);
    await page.getByRole('heading', { name: /^Kernel: / }).waitFor();
    await page.getByTestId('instruction').first().waitFor();
    expect(await page.getByRole('button', { name: /^Delete instruction / }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);

    // The first click only asks; Cancel leaves the session as it was.
    // The session's buttons say whose they are: the instruction's Stop and Delete sit on the same page.
    await page.getByRole('button', { name: 'Delete session' }).click();
    const ask = page.getByRole('alertdialog');
    await ask.getByText('Delete this session? You can restore it from Deleted sessions.').waitFor();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await deletedAt()).toBeNull();

    await page.getByRole('button', { name: 'Delete session' }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await page.getByText('This session is deleted.').waitFor();
    expect(await deletedAt()).not.toBeNull();
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Session deleted' });
    await toast.getByRole('button', { name: 'Undo' }).click();
    await page.getByText('Session restored').first().waitFor();
    await page.getByText('This session is deleted.').waitFor({ state: 'detached' });
    expect(await deletedAt()).toBeNull();
    await context.close();
  });

  it('lists deleted sessions apart, linked from an otherwise empty list, and restores them from there', async () => {
    await json(`/api/v1/agent-session/${sessionId}`, { method: 'DELETE' });
    const { context, page } = await openPage(h, token);
    await page.goto('/sessions');
    // Not "No sessions yet": the one session is deleted, and the way to it is offered.
    const empty = page.locator('[data-empty="sessions"]');
    await empty.getByText('No active sessions').waitFor();
    expect(await page.getByText('No sessions yet').count()).toBe(0);
    await page.getByRole('link', { name: 'Deleted (1)' }).waitFor();
    await empty.getByRole('link', { name: 'Show deleted sessions (1)' }).click();
    await page.waitForURL((url) => url.pathname === '/sessions' && url.searchParams.get('deleted') === '1');
    await page.getByRole('heading', { level: 1, name: 'Deleted sessions' }).waitFor();
    const row = page.getByTestId('session-row');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.first().textContent()).toContain('deleted');

    await row
      .first()
      .getByRole('button', { name: /^Restore / })
      .click();
    await page.getByText('Session restored').first().waitFor();
    await page.locator('[data-empty="sessions"]').getByText('No deleted sessions').waitFor();
    expect(await deletedAt()).toBeNull();

    await page.getByRole('link', { name: 'Sessions', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'My sessions' }).waitFor();
    await page.getByTestId('session-row').first().waitFor();
    expect(await page.getByRole('link', { name: 'Deleted', exact: true }).count()).toBe(1);
    await context.close();
  });

  it('GET /api/v1/agent-session?deleted_only=true lists only the deleted ones', async () => {
    const live = await json<{ count: number }>('/api/v1/agent-session?deleted_only=true');
    expect(live.count).toBe(0);
    await json(`/api/v1/agent-session/${sessionId}`, { method: 'DELETE' });
    const gone = await json<{ count: number; data: { id: string }[] }>('/api/v1/agent-session?deleted_only=true');
    expect(gone.data.map((s) => s.id)).toEqual([sessionId]);
    expect((await json<{ count: number }>('/api/v1/agent-session')).count).toBe(0);
  });
});
