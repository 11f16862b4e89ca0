// The standalone runner given several server URLs: which failures move it to the next, and what it logs.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { EvaluationJobPayload } from '@kernelforge/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startRunnerLoop } from '../src/index.js';
import { catalogue, cpuDevice, fixture, payload, workDir } from './helpers.js';

const TOKEN = 'failover-runner-token';

/** What two replicas share (their database): runners, queued jobs, accepted results. */
interface Shared {
  runners: Set<string>;
  jobs: Array<{ id: string; payload: EvaluationJobPayload }>;
  results: string[];
}

interface Replica {
  url: string;
  /** Requests seen, by path. */
  seen: string[];
  close(): Promise<void>;
}

/** A replica speaking the runner API; `answer` may replace any reply with a status of its own. */
async function replica(
  shared: Shared,
  answer: (path: string) => number | undefined = () => undefined,
): Promise<Replica> {
  const seen: string[] = [];
  const send = (res: ServerResponse, status: number, json: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(json));
  };
  const read = (req: IncomingMessage) =>
    new Promise<Record<string, unknown>>((resolve) => {
      let s = '';
      req.on('data', (c) => (s += c));
      req.on('end', () => resolve(s ? JSON.parse(s) : {}));
    });
  const server: Server = createServer(async (req, res) => {
    const path = (req.url ?? '').replace('/api/v1/runner', '');
    seen.push(path);
    const body = await read(req);
    const forced = answer(path);
    if (forced) return send(res, forced, { detail: `forced ${forced}` });
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(res, 401, { detail: 'bad token' });
    if (path === '/register') {
      const id = `runner-${shared.runners.size + 1}`;
      shared.runners.add(id);
      return send(res, 200, { runner_id: id, lease_seconds: 30, heartbeat_seconds: 1 });
    }
    if (!shared.runners.has(body.runner_id as string)) return send(res, 404, { detail: 'unknown runner' });
    if (path === '/claim') {
      const job = shared.jobs.shift();
      if (!job) {
        await new Promise((r) => setTimeout(r, 100));
        return send(res, 200, { job: null });
      }
      const lease = { job_id: job.id, lease_token: `lease-${job.id}`, attempt: 1, payload: job.payload };
      return send(res, 200, { job: { ...lease, lease_expires_at: new Date(Date.now() + 30_000).toISOString() } });
    }
    if (path.endsWith('/heartbeat'))
      return send(res, 200, { lease_expires_at: new Date(Date.now() + 30_000).toISOString() });
    const result = /^\/jobs\/([^/]+)\/result$/.exec(path);
    if (result?.[1]) {
      shared.results.push(result[1]);
      return send(res, 200, { message: 'Result recorded' });
    }
    send(res, 404, { detail: 'no route' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const until = async (cond: () => boolean, what: string) => {
  const end = Date.now() + 60_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const s of stops.splice(0).reverse()) await s();
});

function runner(urls: string[], lines: string[]) {
  const loop = startRunnerLoop({
    serverUrl: urls,
    token: TOKEN,
    devices: [cpuDevice()],
    problems: catalogue,
    workDir,
    claimWaitMs: 200,
    minBackoffMs: 50,
    maxBackoffMs: 200,
    timing: 'quick',
    log: (l) => lines.push(l),
  });
  stops.push(() => loop.stop());
  return loop;
}

describe('kforge-runner with several servers', () => {
  it('treats a 4xx as an answer: it never asks the next server, and logs each failure with its retry time', async () => {
    const shared: Shared = { runners: new Set(), jobs: [], results: [] };
    const a = await replica(shared, () => 403);
    const b = await replica(shared);
    stops.push(a.close, b.close);
    const lines: string[] = [];
    runner([a.url, b.url], lines);
    await until(() => a.seen.length >= 3, 'three tries at the first server');
    expect(b.seen).toEqual([]);
    expect(lines.join('\n')).toMatch(
      /claiming a job failed \(403 Forbidden: forced 403\); retrying in \d+ ms \(at \d\d:\d\d:\d\d\.\d+Z\) at http/,
    );
  });

  it('moves on to the next server on a connection error and a 5xx, and logs every failed result post', async () => {
    const shared: Shared = {
      runners: new Set(),
      jobs: [{ id: 'job-1', payload: payload('19_ReLU', fixture('./candidates/relu_omp.c')) }],
      results: [],
    };
    // A takes no results at all; B refuses the first one: the first post fails everywhere, the second lands on B.
    let bRefused = 0;
    const a = await replica(shared, (path) => (path.endsWith('/result') ? 503 : undefined));
    const b = await replica(shared, (path) => (path.endsWith('/result') && bRefused++ === 0 ? 503 : undefined));
    // A server that is not there at all, listed first.
    const gone = await replica(shared);
    await gone.close();
    stops.push(a.close, b.close);
    const lines: string[] = [];
    runner([gone.url, a.url, b.url], lines);
    // The runner logs where it posted once the server has answered, a moment after the server recorded it.
    await until(
      () => shared.results.length > 0 && lines.some((l) => l.includes('(posted to ')),
      'the result, and the line saying where it went',
    );
    const log = lines.join('\n');
    expect(shared.results).toEqual(['job-1']);
    expect(gone.seen).toEqual([]);
    expect(log).toContain(`server ${gone.url} failed (ECONNREFUSED); failing over to ${a.url}`);
    expect(log).toContain(`server ${a.url} failed (answered 503: forced 503); failing over to ${b.url}`);
    expect(log).toMatch(
      /posting the result of job job-1 failed \(.*answered 503.*\); try 2 of 20 in \d+ ms \(at [\d:.]+Z\) to http/,
    );
    // Whatever the verdict (a loaded machine can fail the timing checks), it went to B, once.
    expect(log).toMatch(new RegExp(`job job-1: \\w+ \\(posted to ${b.url.replace(/[.]/g, '\\.')}\\)`));
    expect(log.match(/\(posted to /g)).toHaveLength(1);
  });
});
