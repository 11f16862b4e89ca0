// Issue 35, "Run tests" apart from "Submit", in real Chromium against the real server and its in-process runner: on
// the Submit page the user runs the tests (benchmark mode on public inputs) and sees the verdict, its checks and
// timings, with nothing on the leaderboard, and finds it under "Your test runs", never among "Your submissions"; then
// submits the same source and finds it on the leaderboard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeText, type Harness, openPage, pasteInto, sourceEditor, startHarness } from './harness';

const RELU = [
  '#include <stdint.h>',
  'void solution(const float* x, float* y, int64_t n) {',
  '  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : 0.0f;',
  '}',
  '',
].join('\n');

let h: Harness;
let token = '';

beforeAll(async () => {
  h = await startHarness();
  token = (await h.server.createUser({ full_name: 'Tess Runner', password: 'run tests password' })).token;
}, 240_000);

afterAll(async () => {
  await h?.close();
});

async function boardEntries(): Promise<unknown[]> {
  const res = await h.server.request('/api/v1/leaderboard/19_ReLU', { token });
  return ((await res.json()) as { entries: unknown[] }).entries;
}

describe('Run tests, then Submit', () => {
  it('shows a test run’s verdict without ranking it, then the submission on the leaderboard', async () => {
    const { context, page } = await openPage(h, token);
    await page.goto('/kernels/submit');
    await page.getByRole('heading', { name: 'Submit a solution' }).waitFor();
    await page.getByLabel('Problem').selectOption('19_ReLU');
    await page.getByLabel('Language').selectOption('c');
    await page.getByText('Prototype').waitFor();
    const editor = await sourceEditor(page);
    await pasteInto(page, editor, RELU);
    await expect.poll(() => codeText(editor)).toBe(RELU);

    await page.getByRole('button', { name: 'Run tests', exact: true }).click();
    const testRun = page.getByRole('region', { name: 'Test run', exact: true });
    await testRun
      .getByTestId('verdict')
      .filter({ hasText: /accepted|incorrect|error|rejected|timeout/ })
      .waitFor({ timeout: 120_000 });
    expect(await testRun.getByTestId('verdict').textContent()).toContain('accepted');
    // Said twice, once above the result and once where a rank would be (one match each, whichever renders first).
    await testRun.getByText(/Not ranked: Submit puts it on the leaderboard/).waitFor();
    await testRun.getByText('Test run, not ranked', { exact: true }).waitFor();
    // It is the user's alone and ranked nowhere: no leaderboard entry, not among "Your submissions".
    expect(await boardEntries()).toEqual([]);
    const mine = await h.server.request('/api/v1/submission', { token });
    expect(((await mine.json()) as { count: number }).count).toBe(0);
    // Listed apart on the page: under "Your test runs", marked not ranked and linking to its page; "Your submissions"
    // stays empty.
    const tests = await h.server.request('/api/v1/submission?purpose=test', { token });
    const testRunId = ((await tests.json()) as { data: { id: string }[] }).data[0]?.id ?? '';
    expect(testRunId).toMatch(/^[0-9a-f-]{36}$/);
    const runs = page.getByRole('region', { name: 'Your test runs', exact: true });
    const runRow = runs.getByTestId('my-test-run');
    await runRow.filter({ hasText: 'accepted' }).waitFor({ timeout: 30_000 });
    expect(await runRow.count()).toBe(1);
    await runRow.getByText('Test run, not ranked', { exact: true }).waitFor();
    expect(await runRow.getByRole('link').getAttribute('href')).toBe(`/leaderboard/submission/${testRunId}`);
    const submissions = page.getByRole('region', { name: 'Your submissions', exact: true });
    await submissions.getByText('No submissions yet').waitFor();
    expect(await submissions.getByTestId('my-submission').count()).toBe(0);

    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    const evaluation = page.getByRole('region', { name: 'Evaluation', exact: true });
    await evaluation
      .getByTestId('verdict')
      .filter({ hasText: /accepted|incorrect|error|rejected|timeout/ })
      .waitFor({ timeout: 120_000 });
    expect(await evaluation.getByTestId('verdict').textContent()).toContain('accepted');
    // The submission joins "Your submissions"; the test run stays apart, the only row of "Your test runs".
    await submissions.getByTestId('my-submission').filter({ hasText: 'accepted' }).waitFor({ timeout: 30_000 });
    expect(await submissions.getByTestId('my-submission').count()).toBe(1);
    expect(await submissions.getByText('Test run, not ranked').count()).toBe(0);
    expect(await runRow.count()).toBe(1);

    await page.goto('/leaderboard/19_ReLU');
    await page.getByTestId('leaderboard-row').filter({ hasText: 'Tess Runner' }).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('leaderboard-row').count()).toBe(1);
    expect(await boardEntries()).toHaveLength(1);
    await context.close();
  }, 400_000);
});
