// Browser-test harness: a fresh `vite build`, the real server (startTestServer) serving it, and Debian's chromium.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../packages/server/test/helpers/server';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const SCREENSHOTS = join(root, 'tests', 'e2e', 'screenshots');
/** Whether the tests save screenshots to look at (KFORGE_E2E_SCREENSHOTS=0: no; the whole suite's default, as no one
    looks at them there and each costs ~0.5 s; running an e2e file by itself saves them). */
export const SHOOTING = process.env.KFORGE_E2E_SCREENSHOTS !== '0';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Builds the web app into a fresh folder and returns it. */
export function buildWeb(): string {
  const out = mkdtempSync(join(tmpdir(), 'kforge-web-dist-'));
  const web = join(root, 'packages', 'web');
  execFileSync(
    process.execPath,
    [
      join(web, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--outDir',
      out,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    {
      cwd: web,
      stdio: 'inherit',
      // The production build, as shipped: vitest's NODE_ENV=test would otherwise give React's development build.
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  return out;
}

export async function launchChromium(): Promise<Browser> {
  // playwright gives each launch a fresh temporary user-data-dir.
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    headless: true,
  });
}

export interface Harness {
  server: TestServer;
  browser: Browser;
  dist: string;
  /** Every Content-Security-Policy violation Chromium reported on a page from openPage (the app must cause none). */
  cspViolations: string[];
  close(): Promise<void>;
}

export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const dist = buildWeb();
  const server = await startTestServer({ env: { KFORGE_WEB_DIST: dist, ...env }, localRunner: true });
  const browser = await launchChromium();
  return {
    server,
    browser,
    dist,
    cspViolations: [],
    async close() {
      await browser.close().catch(() => {});
      await server.stop();
    },
  };
}

/** A fresh browser context (own storage) with an optional token already stored. */
export async function openPage(h: Harness, token?: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await h.browser.newContext({ baseURL: h.server.url, viewport: { width: 1280, height: 900 } });
  if (token)
    await context.addInitScript((t) => {
      if (!sessionStorage.getItem('kf-init')) {
        sessionStorage.setItem('kf-init', '1');
        localStorage.setItem('access_token', t);
      }
    }, token);
  // Chromium reports each blocked script, style, connection or frame as a console error naming the policy.
  context.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) h.cspViolations.push(`${msg.page()?.url() ?? '?'}: ${msg.text()}`);
  });
  const page = await context.newPage();
  return { context, page };
}

/** Screenshots of the current screen in both themes (the `dark` class is what the theme sets). */
export async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOOTING) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.waitForTimeout(150);
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      document.documentElement.classList.toggle('dark', t === 'dark');
      document.documentElement.style.colorScheme = t;
    }, theme);
    // Let colour transitions (transition-colors, 150 ms) finish, or the shot shows a half-switched theme.
    await page.waitForTimeout(250);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${theme}.png`), fullPage: true });
  }
  await page.evaluate(() => {
    const dark = localStorage.getItem('theme') === 'dark';
    document.documentElement.classList.toggle('dark', dark);
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  });
}

/** The newest mail to `to` in the outbox (superusers' GET /api/v1/admin/outbox), waiting for it to arrive. */
export async function mailTo(h: Harness, to: string): Promise<{ subject: string; text: string }> {
  for (let i = 0; i < 50; i++) {
    const res = await h.server.request('/api/v1/admin/outbox', { token: h.server.admin.token });
    if (!res.ok) throw new Error(`outbox: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { data: { to: string; subject: string; text: string; created_at: string }[] };
    const mails = body.data.filter((m) => m.to.includes(to)).sort((a, b) => b.created_at.localeCompare(a.created_at));
    if (mails[0]) return mails[0];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to}`);
}

/** The path + search of the first link in a mail that points at `route`. */
export function linkIn(text: string, route: string): string {
  const match = new RegExp(`https?://[^\\s"'<>]*${route}\\?token=[^\\s"'<>]+`).exec(text);
  if (!match) throw new Error(`no ${route} link in: ${text}`);
  const url = new URL(match[0]);
  return `${url.pathname}${url.search}`;
}

/** A JWT-shaped token whose exp is in the past (the web app must drop it at start). */
export function expiredJwt(): string {
  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: 'x', exp: Math.floor(Date.now() / 1000) - 60 })}.sig`;
}

/** The submit page's code editor (CodeMirror's content element, labelled "Source …"), once it has loaded. */
export async function sourceEditor(page: Page): Promise<Locator> {
  const editor = page.getByTestId('code-editor').locator('.cm-content');
  await editor.waitFor();
  return editor;
}

/** What a CodeMirror view shows, its lines joined (lines far outside the viewport are not drawn). */
export function codeText(content: Locator): Promise<string> {
  return content.evaluate((el) =>
    [...el.querySelectorAll('.cm-line')].map((line) => line.textContent ?? '').join('\n'),
  );
}

/** Replaces what the editor holds with `text` as a user pasting it would: select all, then insert. */
export async function pasteInto(page: Page, editor: Locator, text: string): Promise<void> {
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}
