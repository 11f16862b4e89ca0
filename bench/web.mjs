// Web figures: the initial JS + CSS (gzip) of a fresh build, and the time to first render of a session page
// with 20 attempts in headless Chromium. The page is served by a small static server whose API answers with a
// fixed session (a stand-in at the protocol level), so the figure is the web app's own cost, not the server's.
// Run: node bench/web.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('..', import.meta.url));
const web = join(root, 'packages', 'web');
const dist = mkdtempSync(join(tmpdir(), 'kforge-bench-web-'));
execFileSync(
  process.execPath,
  [
    join(web, 'node_modules', 'vite', 'bin', 'vite.js'),
    'build',
    '--outDir',
    dist,
    '--emptyOutDir',
    '--logLevel',
    'warn',
  ],
  { cwd: web, stdio: 'inherit' },
);

// 1. What index.html loads before any route runs: the entry script, its modulepreloads, the stylesheets.
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="(\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
let js = 0;
let css = 0;
let sent = 0;
for (const asset of new Set(initial)) {
  const raw = readFileSync(join(dist, asset));
  const size = gzipSync(raw).length;
  if (asset.endsWith('.css')) css += size;
  else js += size;
  // What the server sends a browser (which asks for br): the build's brotli copy, or the file when it has none.
  sent += existsSync(join(dist, `${asset}.br`)) ? statSync(join(dist, `${asset}.br`)).size : raw.length;
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`initial JS  (gzip): ${kb(js)}`);
console.log(`initial CSS (gzip): ${kb(css)}`);
console.log(`initial JS + CSS (gzip): ${kb(js + css)}  [${[...new Set(initial)].length} files]`);
console.log(`initial JS + CSS as sent (build-time brotli): ${kb(sent)}`);

// 2. A session page with 20 attempts.
const b64 = (v) => Buffer.from(JSON.stringify(v)).toString('base64url');
const token = `${b64({ alg: 'HS256' })}.${b64({ sub: 'u1', exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`;
const now = new Date().toISOString();
const evaluation = (i) => ({
  verdict: 'accepted',
  mode: 'benchmark',
  message: `accepted: ${(2 + i / 10).toFixed(2)}x faster than the reference`,
  compile: { ok: true, compiler: 'cc', flags: ['-O3'], log: '', duration_ms: 200 },
  correctness: {
    passed: true,
    cases: [
      {
        name: 'n17',
        sizes: { n: 17 },
        seed: 1,
        distribution: 'uniform',
        passed: true,
        max_abs_error: 0,
        mean_abs_error: 0,
        max_rel_error: 0,
        mean_rel_error: 0,
      },
    ],
  },
  benchmarking_result: {
    optimized_time: 5 - i * 0.1,
    baseline_time: 10,
    speedup: 10 / (5 - i * 0.1),
    gbps: 20,
    gflops: 2,
    fraction_of_peak: 0.5,
    cases: [
      {
        name: 'n16M',
        sizes: { n: 16777216 },
        optimized: { mean_ms: 5, median_ms: 5, min_ms: 4, max_ms: 6, stddev_ms: 0.2, samples: 40 },
        baseline: { mean_ms: 10, median_ms: 10, min_ms: 9, max_ms: 11, stddev_ms: 0.2, samples: 40 },
        speedup: 2,
        gbps: 20,
        gflops: 2,
        fraction_of_peak: 0.5,
        fraction_of_peak_bandwidth: 0.5,
        fraction_of_peak_flops: 0.01,
      },
    ],
    flagged_for_review: false,
    review_reasons: [],
  },
  runner_seconds: 1,
  evaluated_at: now,
});
const attempts = Array.from({ length: 20 }, (_, i) => ({
  id: `a${i + 1}`,
  session_id: 's1',
  instruction_id: 'i1',
  attempt_number: i + 1,
  status: 'completed',
  language: 'c',
  source: `#include <stdint.h>\nvoid solution(const float* x, float* y, int64_t n) {\n  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : 0.0f; // ${i}\n}\n`,
  explanation: 'A plain loop.',
  evaluation_state: evaluation(i),
  created_at: now,
  finished_at: now,
}));
const session = {
  id: 's1',
  owner_id: 'u1',
  problem_name: '19_ReLU',
  name: 'relu',
  label: 'relu',
  device: 'cpu-x86_64',
  status: 'idle',
  agent: { provider: 'tuner', model: null },
  created_at: now,
  updated_at: now,
  deleted_at: null,
  best_attempt: attempts[19],
  generation_attempts: attempts,
  user_instructions: [
    {
      id: 'i1',
      session_id: 's1',
      text: 'go fast',
      name: 'go fast',
      starred: false,
      status: 'completed',
      max_attempts: 20,
      created_at: now,
      deleted_at: null,
    },
  ],
};
const api = {
  '/api/v1/settings': {
    posthog_key: null,
    posthog_host: null,
    feedback_survey_id: null,
    waitlist_survey_id: null,
    google_client_id: null,
    page_urls: { terms_of_service: null, privacy_policy: null, contact_us: null },
    auth_server: { url: '/auth', application_name: 'kernelforge' },
    agents: [],
  },
  '/auth/users/me': {
    id: 'u1',
    email: 'bench@kforge.test',
    full_name: 'Bench',
    created_at: now,
    is_superuser: false,
    is_active: true,
  },
  '/api/v1/agent-session/s1': session,
};
const types = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html' };
const server = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (path === '/api/v1/agent-session/s1/events') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    return; // held open, like the real stream with nothing to say
  }
  if (path in api) {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify(api[path]));
  }
  if (path.startsWith('/api/') || path.startsWith('/auth/')) {
    res.writeHead(404, { 'content-type': 'application/json' });
    return res.end('{"detail":"Not Found"}');
  }
  let file = join(dist, path);
  try {
    if (!statSync(file).isFile()) throw new Error();
  } catch {
    file = join(dist, 'index.html');
  }
  // As the real server does: the build's brotli copy to a client that takes it.
  const br = /\bbr\b/.test(req.headers['accept-encoding'] ?? '') && existsSync(`${file}.br`);
  res.writeHead(200, {
    'content-type': types[extname(file)] ?? 'application/octet-stream',
    ...(br ? { 'content-encoding': 'br' } : {}),
  });
  res.end(readFileSync(br ? `${file}.br` : file));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    // As tests/e2e/harness.ts: no preloaded omnibox popup renderer (busy 0.07-0.09 of a core beside the page).
    '--disable-features=WebUIOmniboxAimPopup,WebUIOmniboxFullPopup,WebUIOmniboxPopup',
  ],
});
const times = [];
const RUNS = 9;
for (let run = 0; run < RUNS + 1; run++) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript((t) => localStorage.setItem('access_token', t), token);
  const page = await context.newPage();
  await page.goto(`${base}/kernels/s1`);
  const ms = await page.waitForFunction(
    () => document.querySelectorAll('[data-testid="attempt-row"]').length === 20 && performance.now(),
    null,
    { polling: 'raf', timeout: 30_000 },
  );
  const value = await ms.jsonValue();
  if (process.argv.includes('--detail') && run === RUNS) {
    const t = await page.evaluate(() => ({
      nav: performance.getEntriesByType('navigation')[0].toJSON(),
      res: performance
        .getEntriesByType('resource')
        .map((r) => `${r.name.replace(/^.*\//, '')} ${Math.round(r.startTime)}-${Math.round(r.responseEnd)}`),
      paint: performance.getEntriesByType('paint').map((p) => `${p.name} ${Math.round(p.startTime)}`),
    }));
    console.log(
      `detail: html ${Math.round(t.nav.responseEnd)} ms, DOMContentLoaded ${Math.round(t.nav.domContentLoadedEventEnd)} ms; ${t.paint.join(', ')}`,
    );
    for (const r of t.res) console.log(`  ${r}`);
  }
  if (run > 0) times.push(value); // the first run warms the disk cache
  await context.close();
}
await browser.close();
server.close();
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(
  `session page, 20 attempts, first render (navigation start -> 20 rows): median ${median.toFixed(0)} ms, min ${times[0].toFixed(0)} ms, max ${times.at(-1).toFixed(0)} ms over ${RUNS} runs`,
);
