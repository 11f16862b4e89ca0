// Issue 35 item 8 in real Chromium against the real server: a form's error shows under the field it is about, in the
// product's words, and nothing out of range is silently changed and sent (0 attempts started a real session).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, openPage, startHarness } from './harness';

let h: Harness;
let token = '';

async function count(path: string): Promise<number> {
  const res = await h.server.request(path, { token });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { count: number }).count;
}

beforeAll(async () => {
  h = await startHarness();
  token = (await h.server.createUser({ password: 'form errors password' })).token;
}, 240_000);

afterAll(async () => {
  await h?.close();
});

describe('form errors where they happen', () => {
  it('states the attempts maximum and refuses 0 and 1000 under the field, starting nothing', async () => {
    const { context, page } = await openPage(h, token);
    await page.goto('/kernels/generate-kernel');
    const attempts = page.getByLabel(/^Number of attempts/);
    await attempts.waitFor();
    // The maximum is stated before anything is typed.
    expect(await page.locator('label', { hasText: 'Number of attempts' }).textContent()).toContain('1 to 20');
    await page.getByRole('button', { name: 'Start session' }).waitFor();
    for (const typed of ['0', '1000', '2.5']) {
      await attempts.fill(typed);
      // Kept as typed, not clamped to 1 or 20.
      expect(await attempts.inputValue()).toBe(typed);
      await page.getByRole('button', { name: 'Start session' }).click();
      const error = page.getByTestId('field-error');
      expect(await error.textContent()).toBe('Enter a whole number from 1 to 20.');
      expect(await attempts.getAttribute('aria-invalid')).toBe('true');
      expect(await attempts.evaluate((el) => el === document.activeElement)).toBe(true);
    }
    expect(new URL(page.url()).pathname).toBe('/kernels/generate-kernel');
    expect(await count('/api/v1/agent-session')).toBe(0);
    await attempts.fill('3');
    expect(await page.getByTestId('field-error').count()).toBe(0);
    await context.close();
  });

  it('names a sweep list’s unknown problems under the field, with the one meant, and starts no sweep', async () => {
    const { context, page } = await openPage(h, token);
    await page.goto('/sweeps');
    await page.getByLabel('Problems', { exact: true }).selectOption('list');
    await page.getByLabel(/^Problem names/).fill('19_relu 99_Nothing');
    await page.getByRole('button', { name: 'Start sweep' }).click();
    const error = page.getByTestId('field-error');
    await error.waitFor();
    expect(await error.textContent()).toBe(
      'Not a problem: 19_relu (did you mean 19_ReLU?), 99_Nothing. The Problems list above names them all.',
    );
    expect(await page.getByLabel(/^Problem names/).getAttribute('aria-invalid')).toBe('true');
    // No toast over the form listing every problem.
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);
    expect(await count('/api/v1/sweep')).toBe(0);

    // Attempts out of range: said under that field too.
    await page.getByLabel(/^Problem names/).fill('19_ReLU');
    await page.getByLabel(/^Attempts per problem/).fill('0');
    await page.getByRole('button', { name: 'Start sweep' }).click();
    expect(await page.getByTestId('field-error').textContent()).toBe('Enter a whole number from 1 to 20.');
    expect(await count('/api/v1/sweep')).toBe(0);
    await context.close();
  });

  it('says an unknown problem’s leaderboard does not exist, in the product’s words, and links the one meant', async () => {
    const { context, page } = await openPage(h, token);
    await page.goto('/leaderboard/19_relu');
    const unknown = page.getByTestId('unknown-problem');
    await unknown.getByText('There is no problem named 19_relu').waitFor();
    expect(await page.getByText('/api/v1/problems').count()).toBe(0);
    await unknown.getByRole('link', { name: 'Open 19_ReLU' }).click();
    await page.getByRole('heading', { level: 1, name: 'Problem: 19 ReLU', exact: true }).waitFor();

    await page.goto('/leaderboard/No_such_thing');
    await page.getByTestId('unknown-problem').getByText('Something went wrong: Not Found', { exact: true }).waitFor();
    await page.getByTestId('unknown-problem').getByRole('link', { name: 'Go to all leaderboards' }).click();
    await page.getByRole('heading', { level: 1, name: 'Leaderboard' }).waitFor();
    await context.close();
  });
});
