// The in-process runner: this server evaluates jobs for the devices its own machine has, straight from the jobs table.
import { hostname } from 'node:os';
import { evaluate } from '@kernelforge/runner';
import type { Device, EvaluationJobPayload } from '@kernelforge/sdk';
import { claimJob, heartbeatJob } from '../jobs/queue.js';
import type { Job } from '../jobs/types.js';
import { recordEvaluation } from '../services/evaluation-results.js';
import type { Product } from '../services/product.js';

const IDLE_POLL_MS = 1000;
const SEEN_EVERY_MS = 15_000;

export interface InProcessRunner {
  stop(): Promise<void>;
}

/**
 * One evaluation at a time: on a small machine two benchmarks side by side would disturb each other's timings.
 * The runner registers a `runners` row so every replica's device list shows this machine's devices.
 */
export async function startInProcessRunner(p: Product): Promise<InProcessRunner> {
  const devices = await p.devices.localDevices();
  if (devices.length === 0) return { stop: async () => {} };
  const rows = await p.sql.query<{ id: string }>(
    'INSERT INTO runners (name, devices, version, local) VALUES ($1, $2, $3, true) RETURNING id',
    [`in-process@${hostname()}:${process.pid}`, JSON.stringify(devices), 'in-process'],
  );
  const runnerId = (rows[0] as { id: string }).id;
  const seen = setInterval(() => {
    p.sql.query('UPDATE runners SET last_seen_at = now() WHERE id = $1', [runnerId]).catch(() => {});
  }, SEEN_EVERY_MS);
  const halt = new AbortController();
  const loop = runLoop(p, runnerId, devices, halt.signal);
  return {
    async stop() {
      halt.abort();
      clearInterval(seen);
      await loop;
      // Gone now: the device list should not count this process any more.
      await p.sql.query('DELETE FROM runners WHERE id = $1', [runnerId]).catch(() => {});
    },
  };
}

async function runLoop(p: Product, runnerId: string, devices: Device[], halt: AbortSignal): Promise<void> {
  while (!halt.aborted) {
    try {
      const job = await claimJob(p.sql, {
        kinds: ['evaluate'],
        devices: devices.map((d) => d.id),
        runnerId,
        leaseSeconds: p.config.jobs.leaseSeconds,
      });
      if (!job) {
        await p.signals.wait(IDLE_POLL_MS, halt);
        continue;
      }
      await runEvaluateJob(p, job, devices, halt);
    } catch (err) {
      if (halt.aborted) return;
      p.log.error('in-process runner error', { err });
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

async function runEvaluateJob(p: Product, job: Job, devices: Device[], halt: AbortSignal): Promise<void> {
  const token = job.lease_token as string;
  const payload = job.payload as unknown as EvaluationJobPayload;
  const device = devices.find((d) => d.id === payload.device);
  const lease = new AbortController();
  const beat = setInterval(
    () => {
      heartbeatJob(p.sql, job.id, token, p.config.jobs.leaseSeconds)
        .then((until) => {
          if (!until) lease.abort();
        })
        .catch(() => {});
    },
    Math.max(200, (p.config.jobs.leaseSeconds * 1000) / 3),
  );
  let report: Parameters<typeof recordEvaluation>[3];
  try {
    if (!device) throw new Error(`this server does not serve ${payload.device}`);
    const state = await evaluate(payload, {
      problems: await p.catalogue.definitions(),
      device,
      workDir: p.config.runner.workDir,
      signal: AbortSignal.any([lease.signal, halt]),
      timing: p.config.runner.timing,
    });
    report = { state };
  } catch (err) {
    report = { error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearInterval(beat);
  }
  // A lost lease or a shutdown: the job is (or will be) someone else's; a half-made result is not worth keeping.
  if (lease.signal.aborted || halt.aborted) return;
  await recordEvaluation(p, job.id, token, report);
}
