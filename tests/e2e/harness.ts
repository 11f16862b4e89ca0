// Browser-test harness: a `vite build` of the sources as they stand (built once per change), the real server (startTestServer) serving it, and Debian's chromium.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
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
  // New headless Chromium (the only one Debian's has) preloads the omnibox popup's WebUI in a renderer of its own,
  // which kept 0.07-0.09 of a core busy with no page doing anything; without it an idle browser uses ~0.006
  // (2026-11-28, Chromium 156). A user's browser has its omnibox: nothing the app renders depends on it.
  '--disable-features=WebUIOmniboxAimPopup,WebUIOmniboxFullPopup,WebUIOmniboxPopup',
];

/** What the web build reads: the app, the sdk's sources it resolves to, and the locked dependency versions. */
const WEB_INPUTS = [
  join(root, 'packages', 'web', 'src'),
  join(root, 'packages', 'web', 'public'),
  join(root, 'packages', 'web', 'index.html'),
  join(root, 'packages', 'web', 'vite.config.ts'),
  join(root, 'packages', 'web', 'package.json'),
  join(root, 'packages', 'web', 'tsconfig.json'),
  join(root, 'packages', 'sdk', 'src'),
  join(root, 'pnpm-lock.yaml'),
];

/** A hash of every byte the web build reads (paths and contents) and of the VITE_ settings it would see. */
function webInputsHash(): string {
  const hash = createHash('sha256');
  const add = (path: string) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) add(join(path, name));
      return;
    }
    hash.update(`${relative(root, path)}\0`);
    hash.update(readFileSync(path));
  };
  for (const input of WEB_INPUTS) add(input);
  for (const [k, v] of Object.entries(process.env).sort()) if (k.startsWith('VITE_')) hash.update(`${k}=${v}\0`);
  return hash.digest('hex').slice(0, 16);
}

/**
 * The production build of the web app as the sources stand now, in a folder of its own. Built once per change of
 * its inputs, not once per test file: a build costs 7-10 s of cpu, and 26 files each made their own (issue 34 item
 * 5). A file that finds the build of the same inputs reuses it; two files building at once each build into a
 * folder of their own and the first to finish names it (a rename is atomic; the second removes its copy).
 */
export function buildWeb(): string {
  const out = join(tmpdir(), `kforge-web-dist-${webInputsHash()}`);
  if (existsSync(join(out, 'routes.json'))) return out;
  const building = mkdtempSync(join(tmpdir(), 'kforge-web-building-'));
  const web = join(root, 'packages', 'web');
  execFileSync(
    process.execPath,
    [
      join(web, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--outDir',
      building,
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
  try {
    renameSync(building, out);
  } catch {
    // Another file built the same inputs first: use its build.
    rmSync(building, { recursive: true, force: true });
  }
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

/**
 * One Chromium for the files a test process runs one after another (vitest keeps its process from file to file):
 * each file had launched its own (about 0.4 cpu-s and a dozen processes each time, some 40 a run). Each harness
 * still gets fresh contexts (own storage, own pages) and closes them all when it ends; a browser that has gone away
 * is launched again.
 */
let shared: Promise<Browser> | undefined;
async function sharedChromium(): Promise<Browser> {
  const current = await shared?.catch(() => undefined);
  if (current?.isConnected()) return current;
  shared = launchChromium();
  return shared;
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
  // PyTorch problems scaled to 16 MiB on cpu, not the product's 256 (as the server's and the cli's pytorch tests
  // do): a browser test evaluates one to drive the page, and at 256 MiB 101_HardSigmoid's calls took ~68 ms each,
  // a quick-rules evaluation ~25 s of cpu, not ~7 s. A test may still name its own budget in `env`.
  const server = await startTestServer({
    env: { KFORGE_WEB_DIST: dist, KFORGE_TORCH_BUDGET_MB: '16', ...env },
    localRunner: true,
  });
  const browser = await sharedChromium();
  // Contexts another file left (it failed before closing them) are not this file's to share.
  for (const c of browser.contexts()) await c.close().catch(() => {});
  return {
    server,
    browser,
    dist,
    cspViolations: [],
    async close() {
      for (const c of browser.contexts()) await c.close().catch(() => {});
      await server.stop();
    },
  };
}

/**
 * A fresh browser context (own storage) with an optional token already stored. Every context of these tests prefers
 * reduced motion, which the app honours (its spinner and live-status pulse stand still): an animated page kept
 * headless Chromium at 0.07-0.09 cores the whole time it was open, a still one at 0.004 (2026-11-28).
 */
export async function openPage(h: Harness, token?: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await h.browser.newContext({
    reducedMotion: 'reduce',
    baseURL: h.server.url,
    viewport: { width: 1280, height: 900 },
  });
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
