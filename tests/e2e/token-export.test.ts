// Issue 35 ("the token export line omits KFORGE_API_URL") in real Chromium against the real server: the tokens page's
// export line, pasted into a shell with nothing else set, is all the kforge CLI needs to reach this server as you.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../../packages/cli/test/helpers/cli';
import { type Harness, openPage, startHarness } from './harness';

let h: Harness;
let user: { token: string; email: string };

beforeAll(async () => {
  h = await startHarness();
  const made = await h.server.createUser({ password: 'token export password' });
  user = { token: made.token, email: made.user.email };
}, 240_000);

afterAll(async () => {
  await h?.close();
});

describe('the token export line', () => {
  it('names the server and the token, and the CLI signs in with it alone', async () => {
    const { context, page } = await openPage(h, user.token);
    await page.goto('/tokens/');
    await page.getByLabel('Name').fill('laptop');
    await page.getByRole('button', { name: 'Create token' }).click();
    const line = (await page.getByTestId('export-line').textContent()) ?? '';
    expect(line).toMatch(new RegExp(`^export KFORGE_API_URL=${h.server.url} KFORGE_TOKEN=kf_\\S+$`));
    await context.close();

    // A fresh shell: no KFORGE_* variables, an empty HOME (no stored profile), then the line and `kforge whoami`.
    const bin = await buildCli();
    const home = mkdtempSync(join(tmpdir(), 'kforge-export-line-'));
    const result = await new Promise<{ error: Error | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        'bash',
        ['-c', `set -eu\n${line}\nnode "${bin}" whoami --json`],
        { cwd: home, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home }, timeout: 60_000 },
        (error, stdout, stderr) => resolve({ error, stdout, stderr }),
      );
    });
    expect(result.error, result.stderr).toBeNull();
    const who = JSON.parse(result.stdout) as { user: { email: string }; api_url: string; token_source: string };
    expect(who.user.email).toBe(user.email);
    expect(who.api_url).toBe(h.server.url);
  }, 120_000);
});
