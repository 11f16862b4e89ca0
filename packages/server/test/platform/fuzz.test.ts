// Bad input never gets a 5xx: every route of the OpenAPI document gets NUL bytes, bad %-escapes, wrong types and
// oversized values in its path, query, body and form, through app.request() on a real database. Every answer must be
// < 500, and every error body must carry a `detail`. Routes come from the server's own registry, so new ones are
// covered.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { TestApp } from '../helpers/app.js';
import { CPU, json, RUNNER_TOKEN, registerRunner, createProductApp } from '../product/helpers.js';

type Schema = Record<string, unknown>;
interface Operation {
  method: string;
  path: string;
  op: {
    security?: unknown;
    parameters?: Array<{ name: string; in: 'path' | 'query'; schema: Schema }>;
    requestBody?: { content: Record<string, { schema: Schema }> };
  };
}

let app: TestApp;
let operations: Operation[] = [];
const ids: Record<string, string> = {};
const failures: string[] = [];
let sent = 0;

beforeAll(async () => {
  // No background work (the test app starts none): valid bodies queue jobs that nobody runs. Limits off, so every
  // request reaches validation.
  app = await createProductApp({
    env: {
      KFORGE_SIGNIN_PER_MINUTE: '0',
      KFORGE_MAIL_PER_HOUR: '0',
      KFORGE_DAILY_SESSIONS: '100000',
      KFORGE_DAILY_ATTEMPTS: '100000',
      KFORGE_DAILY_SUBMISSIONS: '100000',
    },
  });
  await registerRunner(app, [CPU]);
  const token = app.admin.token;
  const session = await json<any>(
    app.request('/api/v1/agent-session', {
      method: 'POST',
      token,
      json: { problem_name: '19_ReLU', device: CPU.id },
    }),
  );
  ids.session = session.body.id;
  ids.instruction = session.body.user_instructions[0].id;
  const submission = await json<any>(
    app.request('/api/v1/submission', {
      method: 'POST',
      token,
      json: { problem_name: '19_ReLU', device: CPU.id, language: 'c', source: 'void solution(){}' },
    }),
  );
  ids.submission = submission.body.id;
  const doc = await json<{ paths: Record<string, Record<string, Operation['op']>> }>(
    app.request('/api/v1/openapi.json'),
  );
  operations = Object.entries(doc.body.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
});
afterAll(() => app?.stop());

/** A value for a path parameter that names a real resource, so body checks run against something that exists. */
function realParam(path: string, name: string): string {
  if (path.startsWith('/api/v1/agent-session/instruction/')) return ids.instruction as string;
  if (path.startsWith('/api/v1/agent-session/')) return ids.session as string;
  if (name === 'submission_id') return ids.submission as string;
  if (name === 'problem_name' || name === 'name') return '19_ReLU';
  return randomUUID();
}

function fillPath(path: string, value: (name: string) => string): string {
  return path.replace(/\{([^}]+)\}/g, (_m, name: string) => value(name));
}

/** Fields whose plausible value must name something that exists, so the mutations reach the database. */
const KNOWN: Record<string, unknown> = { problem_name: '19_ReLU', device: CPU.id, language: 'c' };

/** A plausible value for a JSON schema (zod's output): enums, formats and minimums respected. */
function sample(s: Schema | undefined, depth = 0): unknown {
  if (!s || depth > 8) return null;
  if ('default' in s && s.default !== undefined) return s.default;
  if (Array.isArray(s.enum)) return s.enum[0];
  if ('const' in s) return s.const;
  const union = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (union) return sample(union.find((u) => u.type !== 'null') ?? union[0], depth + 1);
  switch (s.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, Schema>))
        out[k] = k in KNOWN ? KNOWN[k] : sample(v, depth + 1);
      return out;
    }
    case 'array':
      return [sample(s.items as Schema, depth + 1)];
    case 'string':
      return s.format === 'email' ? 'fuzz@kforge.test' : 'x'.repeat(Math.max(1, Number(s.minLength ?? 1)));
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return true;
    default:
      return 'x';
  }
}

/** Paths to every value of a sample (the root, containers and leaves), for one mutation each. */
function leaves(v: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(v)) return [at, ...v.flatMap((x, i) => leaves(x, [...at, i]))];
  if (v && typeof v === 'object') return [at, ...Object.entries(v).flatMap(([k, x]) => leaves(x, [...at, k]))];
  return [at];
}

function setAt(root: unknown, at: Array<string | number>, value: unknown): unknown {
  if (at.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let cur = copy;
  for (const key of at.slice(0, -1)) cur = cur[key] as Record<string | number, unknown>;
  cur[at[at.length - 1] as string | number] = value;
  return copy;
}

const BAD_VALUES: unknown[] = [
  'nul\u0000byte',
  '\u0000',
  12345,
  -1,
  1e308,
  2 ** 53 + 2,
  true,
  null,
  { nested: { deeper: ['\u0000'] } },
  ['\u0000', 1],
  'z'.repeat(300_000),
];
const BAD_PARAMS = ['%00', 'a%00b', '%E0%A4%A', '%', '%ZZ', 'x'.repeat(5000), '-1', '1e400', '99999999999999999999'];

async function send(method: string, path: string, init: RequestInit & { token?: string } = {}): Promise<void> {
  sent += 1;
  const controller = new AbortController();
  const headers = new Headers(init.headers);
  if (init.token) headers.set('Authorization', `Bearer ${init.token}`);
  let res: Response;
  try {
    res = await app.app.request(path, { ...init, method, headers, signal: controller.signal });
  } catch (error) {
    failures.push(`${method} ${path.slice(0, 120)}: no answer (${(error as Error).message})`);
    return;
  }
  const where = `${method} ${path.slice(0, 120)} ${String(init.body ?? '').slice(0, 80)}`;
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    controller.abort();
    await res.body?.cancel();
    if (res.status >= 500) failures.push(`${where} -> ${res.status}`);
    return;
  }
  const text = await res.text();
  if (res.status >= 500) failures.push(`${where} -> ${res.status} ${text.slice(0, 200)}`);
  if (res.status >= 400) {
    let detail: unknown;
    try {
      detail = (JSON.parse(text) as { detail?: unknown }).detail;
    } catch {
      detail = undefined;
    }
    if (detail === undefined || detail === '' || (Array.isArray(detail) && detail.length === 0))
      failures.push(`${where} -> ${res.status} without detail: ${text.slice(0, 200)}`);
  }
}

const tokenFor = (o: Operation) => (o.path.startsWith('/api/v1/runner/') ? RUNNER_TOKEN : app.admin.token);
const metrics = (o: Operation) => (o.path === '/metrics' ? app.metricsToken : undefined);

describe('fuzzing every route of the OpenAPI document', () => {
  it('covers every route the app serves (the registry is complete)', () => {
    const served = createApp(app.ctx)
      .routes.filter((r) => r.method !== 'ALL' && !r.path.includes('*'))
      .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`);
    const documented = new Set(operations.map((o) => `${o.method} ${o.path}`));
    // The document itself and its HTML rendering take no input worth documenting.
    const undocumented = served.filter(
      (r) => !documented.has(r) && !['GET /api/v1/openapi.json', 'GET /api/docs'].includes(r),
    );
    expect(undocumented).toEqual([]);
    expect(operations.length).toBeGreaterThan(40);
  });

  // Hundreds of requests each: give them the time a loaded 2-core machine needs.
  it('answers bad path and query values with a 4xx and a detail, never a 5xx', async () => {
    for (const o of operations) {
      const token = metrics(o) ?? tokenFor(o);
      for (const bad of BAD_PARAMS) {
        if (o.path.includes('{'))
          await send(
            o.method,
            fillPath(o.path, () => bad),
            { token },
          );
        const real = fillPath(o.path, (n) => realParam(o.path, n));
        const names = (o.op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        for (const name of [...names, 'unknown']) await send(o.method, `${real}?${name}=${bad}`, { token });
      }
    }
    await send('GET', '/%E0%A4%A');
    await send('GET', '/kernels/%E0%A4%A');
    await send('GET', '/assets/%00.js');
    expect(failures).toEqual([]);
  }, 180_000);

  it('answers NUL bytes, wrong types and oversized values in every body field with a 4xx and a detail', async () => {
    for (const o of operations) {
      const content = o.op.requestBody?.content ?? {};
      const path = fillPath(o.path, (n) => realParam(o.path, n));
      const token = metrics(o) ?? tokenFor(o);
      const jsonSchema = content['application/json']?.schema;
      if (jsonSchema) {
        const base = sample(jsonSchema);
        for (const at of leaves(base))
          for (const bad of BAD_VALUES)
            await send(o.method, path, {
              token,
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(setAt(base, at, bad)),
            });
        for (const body of ['{', '[]', 'null', '"\\u0000"', '{"a":'.repeat(2000)])
          await send(o.method, path, { token, headers: { 'content-type': 'application/json' }, body });
        await send(o.method, path, { token, headers: { 'content-type': 'text/plain' }, body: JSON.stringify(base) });
      }
      const formSchema = content['application/x-www-form-urlencoded']?.schema;
      if (formSchema) {
        const base = sample(formSchema) as Record<string, string>;
        for (const key of Object.keys(base))
          for (const bad of ['nul\u0000byte', 'z'.repeat(300_000), '%E0%A4%A'])
            await send(o.method, path, { body: new URLSearchParams({ ...base, [key]: bad }) });
        await send(o.method, path, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(base) });
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(2000);
  }, 180_000);
});
