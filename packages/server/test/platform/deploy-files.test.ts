// The deployment files in deploy/ parse, and what they run exists in the built tree and starts (Docker is not run here).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { repoRoot } from '../helpers/process.js';

const deploy = (name: string) => readFileSync(join(repoRoot, 'deploy', name), 'utf8');
/** Paths the images and units use, as found in this checkout (the images' WORKDIR and the units' /opt/kernelforge). */
const inTree = (path: string) => join(repoRoot, path.replace(/^\/opt\/kernelforge\//, ''));

interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile instructions: comments dropped, `\` continuations joined. */
function dockerfile(text: string): Instruction[] {
  const logical = text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((l) => l.trim());
  return logical.map((line) => {
    const m = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!m) throw new Error(`not a Dockerfile instruction: ${line}`);
    return { keyword: m[1] as string, args: (m[2] as string).trim() };
  });
}

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  secrets?: string[];
  init?: boolean;
  stop_signal?: string;
}
interface Compose {
  services: Record<string, Service>;
  secrets?: Record<string, { file: string }>;
}

const KEYWORDS = new Set([
  'FROM',
  'RUN',
  'COPY',
  'WORKDIR',
  'ENV',
  'ARG',
  'USER',
  'VOLUME',
  'EXPOSE',
  'HEALTHCHECK',
  'CMD',
]);

/** INI-style unit: every line a comment, a [Section] or Key=Value. */
function unit(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const line of text.split('\n')) {
    if (!line.trim() || /^[#;]/.test(line)) continue;
    const section = /^\[(\w+)\]$/.exec(line);
    if (section) {
      current = new Map();
      sections.set(section[1] as string, current);
      continue;
    }
    const kv = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (!kv || !current) throw new Error(`not a unit file line: ${line}`);
    current.set(kv[1] as string, [...(current.get(kv[1] as string) ?? []), kv[2] as string]);
  }
  return sections;
}

/** `node <script> --help` from the repository root: the command an image or unit runs, started for real. */
function helpOf(script: string): string {
  const run = spawnSync(process.execPath, [inTree(script), '--help'], { cwd: repoRoot, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

describe('deploy/ (files only: Docker cannot run on these machines)', () => {
  for (const [file, script] of [
    ['server.Dockerfile', 'packages/server/dist/main.js'],
    ['runner.Dockerfile', 'packages/runner/dist/main.js'],
  ] as const) {
    it(`${file} parses, builds the workspace, and runs ${script}, which is in the built tree and starts`, () => {
      const steps = dockerfile(deploy(file));
      for (const s of steps) expect(KEYWORDS, `${file}: ${s.keyword}`).toContain(s.keyword);
      const froms = steps.filter((s) => s.keyword === 'FROM');
      expect(froms[0]?.args).toMatch(/^node:20\.20-bookworm-slim AS build$/);
      expect(steps.some((s) => s.keyword === 'RUN' && s.args.includes('pnpm install --frozen-lockfile'))).toBe(true);
      expect(steps.filter((s) => s.keyword === 'COPY' && s.args.startsWith('--from=')).map((s) => s.args)).toEqual([
        '--from=build /opt/kernelforge /opt/kernelforge',
      ]);
      expect(steps.find((s) => s.keyword === 'WORKDIR')?.args).toBe('/opt/kernelforge');
      const cmd = steps.filter((s) => s.keyword === 'CMD').at(-1);
      const argv = JSON.parse(cmd?.args ?? 'null') as string[];
      expect(argv.slice(0, 2)).toEqual(['node', script]);
      expect(existsSync(inTree(script))).toBe(true);
      expect(helpOf(script)).toContain('usage: kforge-');
    });
  }

  it('the runner image has bubblewrap and the compilers, and names the GPU base', () => {
    const text = deploy('runner.Dockerfile');
    expect(text).toMatch(/apt-get install -y --no-install-recommends bubblewrap gcc g\+\+ libgomp1/);
    expect(text).toMatch(/--build-arg BASE=nvidia\/cuda:[\d.]+-devel-/);
    expect(text).toMatch(/^FROM \$\{BASE\}$/m);
  });

  it('compose.yaml parses: Postgres, two replicas sharing one database and secret, a runner given both', () => {
    const compose = YAML.parse(deploy('compose.yaml'), { merge: true }) as Compose;
    const { postgres, runner, caddy, ...rest } = compose.services;
    expect(Object.keys(rest).sort()).toEqual(['server-1', 'server-2']);
    expect(postgres?.image).toMatch(/^postgres:15\.\d+/);
    for (const replica of Object.values(rest)) {
      expect(replica.build?.dockerfile).toBe('deploy/server.Dockerfile');
      expect(replica.environment?.DATABASE_URL_FILE).toBe('/run/secrets/database_url');
      expect(replica.environment?.KFORGE_SECRET_FILE).toBe('/run/secrets/kforge_secret');
      expect(replica.environment?.KFORGE_RUNNER_TOKEN_FILE).toBe('/run/secrets/runner_token');
      expect(replica.environment?.KFORGE_TRUST_PROXY).toBe('1');
    }
    expect(runner?.build?.dockerfile).toBe('deploy/runner.Dockerfile');
    expect(runner?.environment?.KFORGE_SERVER_URL).toBe('http://server-1:8000,http://server-2:8000');
    expect(caddy?.image).toMatch(/^caddy:/);
    for (const s of Object.values(compose.services))
      if (s.build) expect(existsSync(join(repoRoot, 'deploy', s.build.context, s.build.dockerfile))).toBe(true);
  });

  it('compose.yaml: TLS at a balancer in front, no plain HTTP published, no interface but the one chosen', () => {
    const compose = YAML.parse(deploy('compose.yaml'), { merge: true }) as Compose;
    const published = Object.entries(compose.services).filter(([, s]) => (s.ports ?? []).length > 0);
    expect(published.map(([name]) => name)).toEqual(['caddy']);
    for (const port of compose.services.caddy?.ports ?? []) {
      // host-address:443:443[/udp], the address a variable defaulting to loopback: never 0.0.0.0 by default.
      expect(port).toMatch(/^\$\{KFORGE_BIND:-127\.0\.0\.1\}:443:443(\/udp)?$/);
    }
    const caddyfile = deploy('Caddyfile');
    expect(compose.services.caddy?.volumes).toContain('./Caddyfile:/etc/caddy/Caddyfile:ro');
    expect(caddyfile).toMatch(/reverse_proxy server-1:8000 server-2:8000 \{/);
    expect(caddyfile).toMatch(/health_uri \/readyz/);
    expect(caddyfile).toMatch(/flush_interval -1/);
    expect(caddyfile).toMatch(/auto_https disable_redirects/);
    expect(compose.services['server-1']?.environment?.KFORGE_PUBLIC_URL).toMatch(/^https:\/\//);
  });

  it('compose.yaml: secrets from files only, each a real setting; images pinned by version; one /run/lock per host', async () => {
    const { EnvSchema } = await import('../../src/config.js');
    const settings = new Set(Object.keys(EnvSchema.shape));
    const compose = YAML.parse(deploy('compose.yaml'), { merge: true }) as Compose;
    const secretLike = /SECRET$|TOKEN$|PASSWORD$|^DATABASE_URL$/;
    for (const [name, s] of Object.entries(compose.services)) {
      for (const [key, value] of Object.entries(s.environment ?? {})) {
        expect(secretLike.test(key), `${name}: ${key} set in the environment`).toBe(false);
        if (!key.endsWith('_FILE')) continue;
        const setting = key.slice(0, -'_FILE'.length);
        if (name.startsWith('server-')) expect(settings, `${name}: ${key}`).toContain(setting);
        const secret = /^\/run\/secrets\/(\w+)$/.exec(String(value))?.[1];
        expect(secret, `${name}: ${key}=${value}`).toBeDefined();
        expect(s.secrets, `${name} is given the secret ${secret}`).toContain(secret);
        expect(compose.secrets?.[secret as string]?.file).toBe(`./secrets/${secret}`);
      }
      // A version, not a floating tag: name:1.2[.3][-variant] or a digest.
      if (s.image)
        expect(s.image, name).toMatch(
          /^[\w./-]+(:(\d+\.\d+(\.\d+)?[\w.-]*|\$\{KFORGE_VERSION:-\d+\.\d+\.\d+\})|@sha256:[0-9a-f]{64})$/,
        );
    }
    // The secrets stay out of git and out of the images' build context.
    expect(readFileSync(join(repoRoot, 'deploy/secrets/.gitignore'), 'utf8')).toMatch(/^\*$/m);
    expect(readFileSync(join(repoRoot, '.dockerignore'), 'utf8')).toMatch(/^deploy\/secrets$/m);
    expect(compose.services.runner?.volumes).toContain('/run/lock:/run/lock');
    expect(compose.services.runner?.init).toBe(true);
    expect(compose.services.runner?.stop_signal).toBe('SIGTERM');
  });

  it('the server reads X_FILE settings from files, refuses X and X_FILE together, and says which file it cannot read', async () => {
    const { withSecretFiles } = await import('../../src/secret-files.js');
    const { loadConfig } = await import('../../src/config.js');
    const dir = mkdtempSync(join(tmpdir(), 'kforge-secret-files-'));
    try {
      writeFileSync(join(dir, 'secret'), 'from-a-file-0123456789abcdef0123456789abcdef\n');
      writeFileSync(join(dir, 'token'), 'runner-token-from-file');
      const env = withSecretFiles({
        KFORGE_SECRET_FILE: join(dir, 'secret'),
        KFORGE_RUNNER_TOKEN_FILE: join(dir, 'token'),
        KFORGE_DATA_DIR: dir,
      });
      expect(env.KFORGE_SECRET).toBe('from-a-file-0123456789abcdef0123456789abcdef');
      expect(env.KFORGE_SECRET_FILE).toBeUndefined();
      const config = loadConfig(env);
      expect(config.runnerToken).toBe('runner-token-from-file');
      expect(() => withSecretFiles({ KFORGE_SECRET: 'x', KFORGE_SECRET_FILE: join(dir, 'secret') })).toThrow(
        /both KFORGE_SECRET and KFORGE_SECRET_FILE/,
      );
      expect(() => withSecretFiles({ KFORGE_SECRET_FILE: join(dir, 'missing') })).toThrow(
        /KFORGE_SECRET_FILE=.*missing/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the systemd units: the server keeps /run/lock writable for its in-process runner; the runner drains on stop', () => {
    const server = unit(deploy('systemd/kforge-server.service')).get('Service');
    expect(server?.get('ProtectSystem')).toEqual(['strict']);
    expect(server?.get('ReadWritePaths')).toEqual(['/run/lock']);
    expect(server?.get('RestrictNamespaces')).toBeUndefined();
    expect(server?.get('PrivateUsers')).toBeUndefined();
    const runner = unit(deploy('systemd/kforge-runner.service')).get('Service');
    expect(runner?.get('KillMode')).toEqual(['mixed']);
    expect(runner?.get('RestartPreventExitStatus')).toEqual(['3']);
  });

  for (const [file, script] of [
    ['systemd/kforge-server.service', 'packages/server/dist/main.js'],
    ['systemd/kforge-runner.service', 'packages/runner/dist/main.js'],
  ] as const) {
    it(`${file} is a unit file whose ExecStart runs ${script}`, () => {
      const sections = unit(deploy(file));
      expect([...sections.keys()]).toEqual(['Unit', 'Service', 'Install']);
      const exec = sections.get('Service')?.get('ExecStart') ?? [];
      expect(exec).toHaveLength(1);
      const [node, path] = (exec[0] as string).split(' ');
      expect(node).toBe('/usr/bin/node');
      expect(path).toBe(`/opt/kernelforge/${script}`);
      expect(helpOf(path as string)).toContain('usage: kforge-');
      expect(sections.get('Service')?.get('StateDirectoryMode')).toEqual(['0700']);
    });
  }

  it('the built server, as the image and unit run it, serves /healthz', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kforge-deploy-'));
    const child = spawn(process.execPath, [inTree('packages/server/dist/main.js')], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        HOST: '127.0.0.1',
        PORT: '0',
        KFORGE_DATA_DIR: dataDir,
        KFORGE_LOCAL_RUNNER: '0',
        KFORGE_LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let log = '';
      const port = await new Promise<string>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          log += chunk.toString();
          const m = /listening on [^:\s]+:(\d+)/.exec(log);
          if (m) resolve(m[1] as string);
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.once('exit', (code) => reject(new Error(`the built server exited with ${code}:\n${log}`)));
      });
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
