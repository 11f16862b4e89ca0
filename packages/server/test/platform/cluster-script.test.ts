// scripts/cluster.mjs: Postgres, two replicas started together and a runner given both, up and down in one call.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startCluster } from '../../../../scripts/cluster.mjs';
import { waitFor } from '../product/helpers.js';

describe.skipIf(!existsSync('/usr/lib/postgresql'))('the local cluster script', () => {
  it('starts both replicas together on a new database, with the runner serving through them, and stops everything', async () => {
    const lines: string[] = [];
    const cluster = await startCluster({ together: true, print: (l) => lines.push(l) });
    try {
      const [one, two] = cluster.urls;
      for (const url of cluster.urls) expect((await fetch(`${url}/readyz`)).status).toBe(200);
      // Signed in on one replica, seen by the other; the runner registered through one of them serves on both.
      const login = await fetch(`${one}/auth/login/access-token`, {
        method: 'POST',
        body: new URLSearchParams({ username: cluster.admin.email, password: cluster.admin.password }),
      });
      expect(login.status).toBe(200);
      const { access_token } = (await login.json()) as { access_token: string };
      await waitFor(
        async () => {
          const res = await fetch(`${two}/api/v1/devices`, { headers: { authorization: `Bearer ${access_token}` } });
          const body = (await res.json()) as { data: Array<{ kind: string; available: boolean }> };
          return body.data.some((d) => d.kind === 'cpu' && d.available);
        },
        { what: "the runner's cpu device on server-2" },
      );
      // Its mkdtemp work dir (0700) made passable for the sandbox's user (0711 as root), its trial job passed (the
      // trial, before it registers, is why this may take over a minute on a busy machine).
      const log = lines.join('\n');
      expect(log).toMatch(
        /\[runner\] \S+Z kforge-runner: work dir \S+ \((0711|0700)\); servers http:\/\/127\.0\.0\.1:\d+, http:\/\/127\.0\.0\.1:\d+/,
      );
      expect(log).toMatch(/\[runner\] \S+Z kforge-runner: trial job passed \(accepted/);
      if (process.getuid?.() === 0) expect(log).toContain('(0711)');
    } finally {
      await cluster.stop();
    }
    for (const p of cluster.processes)
      expect(p.proc.exitCode !== null || p.proc.signalCode !== null, p.name).toBe(true);
  }, 180_000);
});
