// Code on the pages, in real Chromium against the real server (issue 23): the submit editor, the source views and the
// diffs are CodeMirror 6 (@codemirror/merge for the diffs), loaded only on the pages that show code. The sign-in page
// and the leaderboards stay under their download budget (docs/architecture.md, "Web: what each page downloads"), and
// the session page loads no CodeMirror (its first-render time is a figure of bench/web.mjs, never a timed assertion
// here). Screenshots at 1280 and 390 px of the submit editor and the attempt diff.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeText, type Harness, SCREENSHOTS, SHOOTING, sourceEditor, startHarness } from './harness';

/** What the sign-in page and the leaderboards may download, as sent (compressed bodies), in bytes. */
const BUDGET = 150 * 1024;

let h: Harness;
let user: { token: string };
let device = '';
let sessionId = '';
let attempts: { id: string; attempt_number: number; source: string | null }[] = [];

interface WireSession {
  id: string;
  status: string;
  generation_attempts: { id: string; attempt_number: number; status: string; source: string | null }[];
}

async function json<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const res = await h.server.request(path, { token: user.token, ...init });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  h = await startHarness();
  const created = await h.server.createUser({ password: 'code views password' });
  user = { token: created.token };
  device = (await json<{ data: { id: string }[] }>('/api/v1/devices')).data[0]?.id ?? '';
  // A session of two attempts (the tuner's): the attempt page's diff and the compare page need a pair.
  sessionId = (
    await json<WireSession>('/api/v1/agent-session', {
      method: 'POST',
      json: { problem_name: '19_ReLU', device, max_attempts: 2 },
    })
  ).id;
}, 240_000);

afterAll(async () => {
  await h?.close();
});

async function untilIdle(): Promise<WireSession> {
  for (let i = 0; i < 1200; i++) {
    const s = await json<WireSession>(`/api/v1/agent-session/${sessionId}`);
    if (
      s.status !== 'active' &&
      s.generation_attempts.every((a) => !['queued', 'generating', 'evaluating'].includes(a.status))
    )
      return s;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the session never finished');
}

async function open(width: number, token?: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await h.browser.newContext({
    reducedMotion: 'reduce',
    baseURL: h.server.url,
    viewport: { width, height: 900 },
  });
  if (token) await context.addInitScript((t) => localStorage.setItem('access_token', t), token);
  return { context, page: await context.newPage() };
}

/** Screenshots in both themes under screenshots/code/ (the `dark` class is what the theme sets). */
async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOOTING) return;
  const dir = join(SCREENSHOTS, 'code');
  mkdirSync(dir, { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      document.documentElement.classList.toggle('dark', t === 'dark');
      document.documentElement.style.colorScheme = t;
    }, theme);
    await page.waitForTimeout(250);
    await page.screenshot({ path: join(dir, `${name}-${theme}.png`), fullPage: true });
  }
}

/** How much wider than the viewport the page is (0 when it fits). */
const overflow = (page: Page) =>
  page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth);

describe('what a page downloads', () => {
  /** Loads `path` in a fresh context (empty cache) and adds up the app's files as sent: every response but the API's. */
  async function download(path: string, ready: (page: Page) => Promise<unknown>, token?: string) {
    const { context, page } = await open(1280, token);
    const files: { url: string; bytes: number; encoding: string }[] = [];
    page.on('requestfinished', (request) => {
      const url = new URL(request.url());
      if (url.origin !== new URL(h.server.url).origin || /^\/(api|auth)\//.test(url.pathname)) return;
      void Promise.all([request.sizes(), request.response()]).then(([sizes, response]) =>
        files.push({
          url: url.pathname,
          bytes: sizes.responseBodySize,
          encoding: response?.headers()['content-encoding'] ?? 'identity',
        }),
      );
    });
    await page.goto(path);
    await ready(page);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(200);
    await context.close();
    return { files, total: files.reduce((sum, f) => sum + f.bytes, 0) };
  }
  const heading = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { level: 1, name }).waitFor();

  it('the sign-in page and the leaderboards stay under 150 KB as sent and never load CodeMirror', async () => {
    const pages = [
      { path: '/', ready: (p: Page) => p.getByRole('tab', { name: 'Log in' }).waitFor() },
      { path: '/leaderboard/', ready: heading('Leaderboard'), token: user.token },
      { path: '/leaderboard/19_ReLU', ready: heading('Problem: 19 ReLU'), token: user.token },
      // A pytorch problem's board holds its reference source, folded: no code view until it opens.
      { path: '/leaderboard/101_HardSigmoid', ready: heading('Problem: 101 HardSigmoid'), token: user.token },
    ];
    const over: string[] = [];
    for (const { path, ready, token } of pages) {
      const { files, total } = await download(path, ready, token);
      console.log(`${path}: ${(total / 1024).toFixed(1)} KB in ${files.length} files`);
      expect(files.some((f) => f.url.endsWith('.js'))).toBe(true);
      expect(files.filter((f) => /codemirror/i.test(f.url))).toEqual([]);
      if (total >= BUDGET) over.push(`${path}: ${total} bytes`);
    }
    expect(over).toEqual([]);
    // The pages with code do load it (the measure sees lazily loaded chunks).
    const submit = await download('/kernels/submit', (p) => sourceEditor(p), user.token);
    console.log(`/kernels/submit: ${(submit.total / 1024).toFixed(1)} KB in ${submit.files.length} files`);
    expect(submit.files.filter((f) => /codemirror/i.test(f.url)).length).toBe(1);
  }, 120_000);
});

describe('the submit editor', () => {
  it('accepts typing (Enter keeps the indentation, a closing brace dedents), submits what it holds, and the submission shows it highlighted', async () => {
    const { context, page } = await open(1280, user.token);
    await page.goto('/kernels/submit?problem=19_ReLU');
    await page.getByRole('heading', { name: 'Submit a solution' }).waitFor();
    await page.getByLabel('Language').selectOption('c');
    const editor = await sourceEditor(page);
    // The editor is what the "Source" label names.
    expect(await page.getByLabel(/^Source/).evaluate((el) => el.classList.contains('cm-content'))).toBe(true);
    await expect.poll(() => codeText(editor)).toContain('// Your kernel here.');
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type(
      [
        '#include <stdint.h>',
        'void solution(const float* x, float* y, int64_t n) {',
        'for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : 0.0f;',
        '}',
        '',
      ].join('\n'),
    );
    const source = [
      '#include <stdint.h>',
      'void solution(const float* x, float* y, int64_t n) {',
      '    for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : 0.0f;',
      '}',
      '',
    ].join('\n');
    await expect.poll(() => codeText(editor)).toBe(source);
    // Highlighted as it is typed.
    expect(await editor.locator('.tok-preproc').first().textContent()).toBe('#include');
    expect(await editor.locator('.tok-keyword').allTextContents()).toContain('for');
    expect(await page.getByRole('button', { name: 'Submit', exact: true }).isEnabled()).toBe(true);
    await shoot(page, '1280-submit-editor');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shoot(page, '390-submit-editor');
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await page
      .getByTestId('verdict')
      .filter({ hasText: /accepted|incorrect|error|rejected|timeout/ })
      .waitFor({ timeout: 200_000 });
    expect(await page.getByTestId('verdict').textContent()).toContain('accepted');
    // What the server got is what the editor held.
    const link = await page.getByRole('link', { name: 'open its page' }).getAttribute('href');
    const id = link?.split('/').pop() ?? '';
    expect((await json<{ source: string }>(`/api/v1/leaderboard/submission/${id}`)).source).toBe(source);
    // Its page shows the source in a read-only CodeMirror view, highlighted as C.
    await page.goto(`/leaderboard/submission/${id}`);
    const view = page.getByLabel('Submitted source');
    await expect.poll(() => view.evaluate((el) => el.classList.contains('cm-content'))).toBe(true);
    expect(await view.getAttribute('contenteditable')).toBe('false');
    expect(await codeText(view)).toBe(source);
    expect(await view.locator('.tok-type').allTextContents()).toEqual(expect.arrayContaining(['void', 'float']));
    expect(await view.locator('.tok-number').allTextContents()).toContain('0.0f');
    // The colours are the app's: a keyword is not the text colour.
    const colours = await view.evaluate((el) => {
      const keyword = el.querySelector('.tok-keyword') as HTMLElement;
      return [getComputedStyle(keyword).color, getComputedStyle(el).color];
    });
    expect(colours[0]).not.toBe(colours[1]);
    await context.close();
  }, 300_000);
});

/** The added and removed line counts shown above a diff ("+3 −2 lines"). */
async function counts(page: Page): Promise<[number, number]> {
  const text =
    (await page
      .getByText(/^\+\d+ −\d+ lines/)
      .first()
      .textContent()) ?? '';
  const match = /^\+(\d+) −(\d+)/.exec(text);
  if (!match) throw new Error(`no line counts in ${text}`);
  return [Number(match[1]), Number(match[2])];
}

/**
 * The most changed lines each side of a MergeView drew while it was scrolled from top to bottom. CodeMirror draws
 * only the lines near what is in view, and the box scrolls inside itself (a phone) or with the page: both are walked,
 * so a change far down the file is seen wherever it sits.
 */
async function changedLinesSeen(page: Page, split: ReturnType<Page['getByTestId']>): Promise<{ a: number; b: number }> {
  const [a = 0, b = 0] = await drawnWhileScrolled(page, split, [
    '.cm-merge-a .cm-changedLine',
    '.cm-merge-b .cm-changedLine',
  ]);
  return { a, b };
}

/** The most elements matching each selector drawn inside `box` while it was walked top to bottom (see above). */
async function drawnWhileScrolled(
  page: Page,
  split: ReturnType<Page['getByTestId']>,
  selectors: readonly string[],
): Promise<number[]> {
  const seen = selectors.map(() => 0);
  const look = async () => {
    await page.waitForTimeout(100);
    for (const [i, sel] of selectors.entries()) seen[i] = Math.max(seen[i] ?? 0, await split.locator(sel).count());
  };
  await split.scrollIntoViewIfNeeded();
  // The box's own scrolling parts (the merge view, or each editor's scroller), walked a half-height at a time.
  const steps = await split.evaluate((el) => {
    const scrollers = [el, ...el.querySelectorAll('*')].filter((e) => e.scrollHeight > e.clientHeight + 1);
    return Math.max(0, ...scrollers.map((e) => Math.ceil(e.scrollHeight / Math.max(1, e.clientHeight / 2))));
  });
  for (let i = 0; i <= steps; i++) {
    await split.evaluate((el, k) => {
      for (const e of [el, ...el.querySelectorAll('*')])
        if (e.scrollHeight > e.clientHeight + 1) e.scrollTop = (k * e.clientHeight) / 2;
    }, i);
    await look();
  }
  // And the page over the box, for a box taller than the window.
  const box = await split.boundingBox();
  const viewport = page.viewportSize()?.height ?? 800;
  if (box) {
    const top = box.y + (await page.evaluate(() => window.scrollY));
    for (let y = Math.max(0, top - viewport / 2); y <= top + box.height; y += viewport / 2) {
      await page.evaluate((to) => window.scrollTo(0, to), y);
      await look();
    }
  }
  return seen;
}

describe('the diffs', () => {
  it("the attempt page's diff is CodeMirror's unified merge view; the compare page's side by side is its MergeView", async () => {
    const idle = await untilIdle();
    attempts = idle.generation_attempts.filter((a) => a.source);
    const [first, second] = attempts;
    if (!first || !second) throw new Error(`the session made ${attempts.length} attempts with source, not 2`);
    expect(first.source).not.toBe(second.source);

    for (const width of [1280, 390]) {
      const { context, page } = await open(width, user.token);
      await page.goto(`/kernels/${sessionId}/attempts/${second.id}?tab=previous`);
      const diff = page.getByRole('region', { name: `Diff against attempt #${first.attempt_number}` });
      await diff.locator('.cm-editor').waitFor();
      expect(await diff.getAttribute('data-testid')).toBe('diff');
      // Added lines marked, the removed ones shown above where they were, as the count above the diff says.
      const [added, removed] = await counts(page);
      expect(added + removed).toBeGreaterThan(0);
      const [changed = 0, deleted = 0] = await drawnWhileScrolled(page, diff, ['.cm-changedLine', '.cm-deletedChunk']);
      expect(changed > 0).toBe(added > 0);
      expect(deleted > 0).toBe(removed > 0);
      expect(await diff.locator('.tok-keyword').count()).toBeGreaterThan(0);
      expect(await diff.locator('.cm-lineNumbers .cm-gutterElement').count()).toBeGreaterThan(0);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await shoot(page, `${width}-attempt-diff`);
      await context.close();
    }

    for (const width of [1280, 390]) {
      const { context, page } = await open(width, user.token);
      await page.goto(`/kernels/${sessionId}/compare/${first.attempt_number}/${second.attempt_number}?view=split`);
      const split = page.getByTestId('diff-split');
      await split.locator('.cm-mergeView').waitFor();
      // The old source on the left, the new on the right, each with its changed lines marked.
      const [added, removed] = await counts(page);
      // CodeMirror draws only the lines near the window: walk the page down the whole box, noting what each part
      // draws, so a change far down the file is seen wherever the layout above puts it.
      const seen = await changedLinesSeen(page, split);
      expect(seen.a > 0).toBe(removed > 0);
      expect(seen.b > 0).toBe(added > 0);
      // Both sides highlighted as C.
      expect(await split.locator('.cm-merge-a [class^="tok-"]').count()).toBeGreaterThan(0);
      expect(await split.locator('.cm-merge-b [class^="tok-"]').count()).toBeGreaterThan(0);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      // CodeMirror draws the lines in the window (and a margin): scrolled to, the whole box is drawn.
      await split.scrollIntoViewIfNeeded();
      await page.waitForTimeout(200);
      await shoot(page, `${width}-compare-split`);
      // Unified on the same page, through its tab.
      await page.getByRole('tab', { name: 'Unified' }).click();
      await page.getByTestId('diff').locator('.cm-changedLine, .cm-deletedChunk').first().waitFor();
      await context.close();
    }
  }, 600_000);
});

describe('the session page', () => {
  it('shows no code, so it downloads no CodeMirror (its first render is printed, a figure only)', async () => {
    await untilIdle();
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const { context, page } = await open(1280, user.token);
      // When its heading first shows, measured from the navigation's start.
      await context.addInitScript(() => {
        new MutationObserver((_, observer) => {
          const h1 = document.querySelector('h1');
          if (h1?.textContent?.startsWith('Kernel: ')) {
            (window as unknown as { kfFirstRender: number }).kfFirstRender = performance.now();
            observer.disconnect();
          }
        }).observe(document, { subtree: true, childList: true, characterData: true });
      });
      await page.goto(`/kernels/${sessionId}`);
      await page.getByRole('heading', { level: 1, name: /^Kernel: / }).waitFor();
      times.push(await page.evaluate(() => (window as unknown as { kfFirstRender: number }).kfFirstRender));
      // It shows no code: CodeMirror is not part of it.
      const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
      expect(loaded.filter((url) => /codemirror/i.test(url))).toEqual([]);
      await context.close();
    }
    // A figure, not an assertion: timed targets are measured in bench/ (bench/web.mjs), never asserted in tests.
    console.log(`session page first render: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
    expect(times.every((t) => t > 0)).toBe(true);
  }, 120_000);
});
