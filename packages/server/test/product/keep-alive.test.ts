// A client polling a live session over one keep-alive connection keeps it through the server's event-loop stalls
// (issue 34). The in-process runner measures the cpu's peaks synchronously (execFileSync: 4-7 s seen), and a stall
// past Node's default keep-alive timer (5 s, 6 s with Node's margin) reset the request that came in during it:
// the timer fires before the socket is read, Node destroys it with the request unread, nothing is logged.
import { execFileSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import type { AgentSession, Device } from '@kernelforge/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestServer, TestUser } from '../helpers/server.js';
import { json, startProductServer } from './helpers.js';

let server: TestServer;
let user: TestUser;
let device: string;

beforeAll(async () => {
  server = await startProductServer({ localRunner: true });
  user = await server.createUser();
  const devices = await json<{ data: Device[] }>(server.request('/api/v1/devices', { token: user.token }));
  device = devices.body.data.find((d) => d.kind === 'cpu')?.id ?? '';
}, 120_000);
afterAll(() => server?.stop());

/**
 * The client, on its own thread so it keeps its own time while the server's stalls: Node's fetch (undici, one pooled
 * connection reused for requests one after another), no retries, counting the connections it opened.
 */
const POLLER = `
const { parentPort, workerData } = require('node:worker_threads');
const channels = require('node:diagnostics_channel');
let connections = 0;
channels.subscribe('undici:client:connected', () => connections++);
(async () => {
  const errors = [];
  for (let i = 1; i <= workerData.requests; i++) {
    try {
      const res = await fetch(workerData.url, { headers: { authorization: 'Bearer ' + workerData.token } });
      const body = await res.json();
      parentPort.postMessage({ answered: i, status: body.status, keepAlive: res.headers.get('keep-alive') });
    } catch (error) {
      errors.push('request ' + i + ': ' + (error.cause?.code ?? error.cause?.message ?? error.message));
    }
    await new Promise((r) => setTimeout(r, workerData.intervalMs));
  }
  parentPort.postMessage({ done: true, errors, connections });
})();
`;

interface Answer {
  answered: number;
  status: string;
  keepAlive: string | null;
}

/** A stall past the old timer and its margin (6 s), still short of what a real client waits for an answer. */
const STALL_SECONDS = 6.5;
/** The answers after which the server's loop stalls: each during the client's 250 ms pause before its next GET. */
const STALL_AFTER = [10, 40];
const REQUESTS = 60;

test('a keep-alive client polling a live session is never reset, through event-loop stalls past 6 s', async () => {
  const created = await json<AgentSession>(
    server.request('/api/v1/agent-session', {
      method: 'POST',
      token: user.token,
      json: { device, problem_name: '19_ReLU', max_attempts: 20 },
    }),
  );
  expect(created.status).toBe(201);
  const worker = new Worker(POLLER, {
    eval: true,
    workerData: {
      url: `${server.url}/api/v1/agent-session/${created.body.id}`,
      token: user.token,
      requests: REQUESTS,
      intervalMs: 250,
    },
  });
  const answers: Answer[] = [];
  const result = await new Promise<{ errors: string[]; connections: number }>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('message', (m: Answer | { done: true; errors: string[]; connections: number }) => {
      if ('done' in m) return resolve(m);
      answers.push(m);
      // Blocks this thread, the server's, the way the runner's synchronous child process does.
      if (STALL_AFTER.includes(m.answered)) execFileSync('sleep', [String(STALL_SECONDS)]);
    });
  });
  await worker.terminate();
  // The session was live (the runner evaluating beside the requests) when the first stall came.
  expect(answers[(STALL_AFTER[0] ?? 0) - 1]?.status).toBe('active');
  expect(result.errors).toEqual([]);
  expect(answers).toHaveLength(REQUESTS);
  expect(result.connections).toBe(1);
  // The server tells clients how long it keeps an idle connection: well past any stall.
  expect(answers[0]?.keepAlive).toBe('timeout=65');
}, 180_000);
