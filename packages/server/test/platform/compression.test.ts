// Responses compressed by Accept-Encoding: the web app's precompressed copies, JSON bodies, never the SSE stream;
// and a path the web app's route table does not take answers 404 with the app (which shows its 404 page).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickEncoding } from '../../src/http/compress.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET with node:http, which (unlike fetch) neither asks for nor undoes a content encoding by itself. */
function rawGet(url: string, headers: Record<string, string> = {}, untilBytes?: number): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      let length = 0;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        length += chunk.length;
        if (untilBytes !== undefined && length >= untilBytes) {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
          req.destroy();
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

const script = `console.log(${JSON.stringify('kernelforge '.repeat(400))});`;
let server: TestServer;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'kforge-dist-'));
  mkdirSync(join(dist, 'assets'));
  const index = `<!doctype html><div id="root">kforge-index</div>${'<!-- padding -->'.repeat(100)}`;
  writeFileSync(join(dist, 'index.html'), index);
  writeFileSync(join(dist, 'index.html.br'), brotliCompressSync(index));
  writeFileSync(join(dist, 'index.html.gz'), gzipSync(index));
  writeFileSync(join(dist, 'assets', 'app-1.js'), script);
  writeFileSync(join(dist, 'assets', 'app-1.js.br'), brotliCompressSync(script));
  writeFileSync(join(dist, 'assets', 'app-1.js.gz'), gzipSync(script));
  writeFileSync(
    join(dist, 'routes.json'),
    JSON.stringify(['/', '/kernels/generate-kernel', '/kernels/:kernelId', '/leaderboard/:problemId', '/tokens/']),
  );
  server = await startTestServer({ env: { KFORGE_WEB_DIST: dist }, localRunner: true });
});

afterAll(async () => {
  await server?.stop();
  rmSync(dist, { recursive: true, force: true });
});

describe('compressed responses', () => {
  it('picks brotli, then gzip, and honours q=0', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
    expect(pickEncoding('*')).toBe('br');
  });

  it('sends the build-time brotli or gzip copy of an asset to a client that asks, the file itself otherwise', async () => {
    const br = await rawGet(`${server.url}/assets/app-1.js`, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(br.headers['content-type']).toContain('text/javascript');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(br.body).toString()).toBe(script);

    const gz = await rawGet(`${server.url}/assets/app-1.js`, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);

    const plain = await rawGet(`${server.url}/assets/app-1.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);

    const page = await rawGet(`${server.url}/kernels/generate-kernel`, { 'Accept-Encoding': 'br' });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.body).toString()).toContain('kforge-index');
  });

  it('compresses JSON bodies by Accept-Encoding', async () => {
    const headers = { Authorization: `Bearer ${server.admin.token}` };
    const doc = await rawGet(`${server.url}/api/v1/openapi.json`, { ...headers, 'Accept-Encoding': 'gzip, br' });
    expect(doc.status).toBe(200);
    expect(doc.headers['content-encoding']).toBe('br');
    expect(doc.headers.vary).toContain('Accept-Encoding');
    const parsed = JSON.parse(brotliDecompressSync(doc.body).toString()) as { openapi: string };
    expect(parsed.openapi).toBe('3.1.0');

    const gz = await rawGet(`${server.url}/api/v1/openapi.json`, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString()).openapi).toBe('3.1.0');

    const plain = await rawGet(`${server.url}/api/v1/openapi.json`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString()).openapi).toBe('3.1.0');

    // A small body is not worth it.
    const small = await rawGet(`${server.url}/healthz`, { 'Accept-Encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toEqual({ status: 'ok' });
  });

  it('compresses a session GET (whose rendering is kept as bytes) to the same JSON, and says Vary without it', async () => {
    const { token, user } = await server.createUser();
    const [row] = await server.ctx.db.query<{ id: string }>(
      `INSERT INTO agent_sessions (owner_id, problem_name, name, label, device, status, agent)
       VALUES ($1, '19_ReLU', $2, 'ReLU', 'cpu-x86_64', 'idle', '{"provider":"tuner"}') RETURNING id`,
      [user.id, 'ü-name '.repeat(300)],
    );
    const url = `${server.url}/api/v1/agent-session/${row?.id}`;
    const auth = { Authorization: `Bearer ${token}` };
    const plain = await rawGet(url, auth);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('Accept-Encoding');
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
    const body = JSON.parse(plain.body.toString('utf8')) as { name: string };
    expect(body.name).toBe('ü-name '.repeat(300));
    // Twice each: the first renders, the second is the kept bytes.
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const r = await rawGet(url, { ...auth, 'Accept-Encoding': encoding });
      expect(r.headers['content-encoding']).toBe(encoding);
      expect(r.body.length).toBeLessThan(plain.body.length);
      expect(decode(r.body).equals(plain.body)).toBe(true);
    }
  });

  it('never compresses or holds back the SSE stream', async () => {
    const { token } = await server.createUser();
    const devices = (await (await server.request('/api/v1/devices', { token })).json()) as { data: { id: string }[] };
    const created = await server.request('/api/v1/agent-session', {
      method: 'POST',
      token,
      json: { problem_name: '19_ReLU', device: devices.data[0]?.id ?? 'cpu-x86_64', max_attempts: 1 },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const session = (await created.json()) as { id: string };
    const stream = await rawGet(
      `${server.url}/api/v1/agent-session/${session.id}/events`,
      { Authorization: `Bearer ${token}`, 'Accept-Encoding': 'gzip, br' },
      1,
    );
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toContain('text/event-stream');
    expect(stream.headers['content-encoding']).toBeUndefined();
    // The first bytes arrive before the stream ends: nothing buffers it.
    expect(stream.body.toString()).toContain(': connected');
  });
});

describe('paths the web app does not know', () => {
  it('answer 404 with the app, which shows its 404 page; known client routes answer 200', async () => {
    for (const path of ['/kernels/generate-kernel', '/kernels/abc', '/leaderboard/19_ReLU', '/tokens/', '/']) {
      expect((await server.request(path)).status, path).toBe(200);
    }
    for (const path of ['/nope', '/tokens/x/y', '/kernels/a/b/c/d']) {
      const r = await server.request(path);
      expect(r.status, path).toBe(404);
      expect(r.headers.get('content-type')).toContain('text/html');
      expect(await r.text()).toContain('kforge-index');
    }
  });
});
