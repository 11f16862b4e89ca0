// What leaves the machine besides API calls: usage events to a PostHog stand-in (a local server speaking its
// capture API) only with a key from the server and no opt-out; and every call through HTTP(S)_PROXY unless NO_PROXY.
import { createServer, type IncomingMessage, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { listOf, Problem } from '@kernelforge/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { buildCli, isolatedHome, kforge } from './helpers/cli.js';
import { createApiToken, startTestServer, type TestServer } from './helpers/server.js';

interface CapturedEvent {
  event: string;
  distinct_id?: string;
  properties: Record<string, unknown>;
}

/** PostHog's ingestion endpoints (`/batch/`, `/i/v0/e/`, `/capture/`): records every event posted. */
function startPostHog(): Promise<{ url: string; events: CapturedEvent[]; apiKeys: string[]; server: Server }> {
  const events: CapturedEvent[] = [];
  const apiKeys: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let raw = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip' || raw[0] === 0x1f) raw = gunzipSync(raw);
      try {
        const body = JSON.parse(raw.toString('utf8')) as { api_key?: string; batch?: CapturedEvent[] } & CapturedEvent;
        if (body.api_key) apiKeys.push(body.api_key);
        for (const event of body.batch ?? [body]) events.push(event);
      } catch {
        // Not an event (e.g. a flags request): ignored.
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":1}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, events, apiKeys, server });
    }),
  );
}

/** A forward proxy: CONNECT tunnels and absolute-form requests, counted. */
function startProxy(): Promise<{ url: string; seen: string[]; server: Server }> {
  const seen: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '/');
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req, socket, head) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host ?? '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, seen, server });
    }),
  );
}

let api: TestServer;
let posthog: Awaited<ReturnType<typeof startPostHog>>;
let proxy: Awaited<ReturnType<typeof startProxy>>;
let token: string;

beforeAll(async () => {
  await buildCli();
  posthog = await startPostHog();
  proxy = await startProxy();
  api = await startTestServer({ env: { POSTHOG_KEY: 'phc_cli_test', POSTHOG_HOST: posthog.url } });
  const user = await api.createUser();
  token = await createApiToken(api, user.token);
});

afterAll(async () => {
  await api?.stop();
  posthog?.server.close();
  proxy?.server.close();
});

beforeEach(() => {
  posthog.events.length = 0;
  proxy.seen.length = 0;
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('telemetry', () => {
  test('commands send usage events when the server gives a key; the settings are cached with the profile', async () => {
    const home = isolatedHome();
    const env = { ...home, KFORGE_TOKEN: token, KFORGE_API_URL: api.url };
    // The first command fetches the settings in the background while it runs, and caches them.
    expect((await kforge(['whoami'], { env })).code).toBe(0);
    const config = JSON.parse(readFileSync(join(home.XDG_CONFIG_HOME, 'kforge', 'config.json'), 'utf8'));
    expect(config.profiles.default.settings).toMatchObject({ posthog_key: 'phc_cli_test', api_url: api.url });
    await settle();
    posthog.events.length = 0;

    const result = await kforge(['problems', 'list', '--json'], { env });
    expect(result.code, result.stderr).toBe(0);
    // stdout held only the JSON: telemetry writes nothing.
    expect(listOf(Problem).parse(result.json()).data.length).toBeGreaterThan(0);
    await settle();
    const events = posthog.events.filter((e) => e.event === 'cli command');
    expect(events).toHaveLength(1);
    expect(events[0]?.properties).toMatchObject({ command: 'problems list', exit_code: 0, output: 'json' });
    expect(posthog.apiKeys).toContain('phc_cli_test');
    const anonymousId = JSON.parse(
      readFileSync(join(home.XDG_CONFIG_HOME, 'kforge', 'config.json'), 'utf8'),
    ).anonymous_id;
    expect(typeof anonymousId).toBe('string');
    expect(events[0]?.distinct_id).toBe(anonymousId);

    const missing = await kforge(['problems', 'show', 'No_Such_Problem'], { env });
    expect(missing.code).toBe(4);
    await settle();
    expect(posthog.events.filter((e) => e.event === 'cli command').map((e) => e.properties.exit_code)).toEqual([0, 4]);
  });

  test.each([
    ['KFORGE_TELEMETRY=0', { KFORGE_TELEMETRY: '0' }],
    ['DO_NOT_TRACK=1', { DO_NOT_TRACK: '1' }],
  ])('%s sends nothing', async (_name, optOut) => {
    const env = { ...isolatedHome(), KFORGE_TOKEN: token, KFORGE_API_URL: api.url, ...optOut };
    const result = await kforge(['problems', 'list', '--json'], { env });
    expect(result.code).toBe(0);
    await settle();
    expect(posthog.events).toHaveLength(0);
  });
});

describe('proxy', () => {
  test('HTTP_PROXY carries the API calls; NO_PROXY exempts the host', async () => {
    const base = { ...isolatedHome(), KFORGE_TOKEN: token, KFORGE_API_URL: api.url, KFORGE_TELEMETRY: '0' };
    const proxied = await kforge(['problems', 'list', '--json'], { env: { ...base, HTTP_PROXY: proxy.url } });
    expect(proxied.code, proxied.stderr).toBe(0);
    expect(listOf(Problem).parse(proxied.json()).data.length).toBeGreaterThan(0);
    const { port } = new URL(api.url);
    expect(proxy.seen.some((line) => line.includes(`127.0.0.1:${port}`))).toBe(true);

    proxy.seen.length = 0;
    const direct = await kforge(['problems', 'list', '--json'], {
      env: { ...base, HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' },
    });
    expect(direct.code, direct.stderr).toBe(0);
    expect(proxy.seen).toHaveLength(0);
  });
});
