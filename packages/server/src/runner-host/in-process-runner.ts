// The in-process runner: this server evaluates jobs for the devices its own machine has, straight from the jobs table.
import { hostname } from 'node:os';
import { evaluate } from '@kernelforge/runner';
import type { Device, EvaluationJobPayload } from '@kernelforge/sdk';
import { claimJob, heartbeatJob } from '../jobs/queue.js';
import type { Job } from '../jobs/types.js';
import { recordEvaluation } from '../services/evaluation-results.js';
import type { AppContext } from '../context.js';

const IDLE_POLL_MS = 1000;
const SEEN_EVERY_MS = 15_000;

export interface InProcessRunner {
  stop(): Promise<void>;
}

/**
 * One evaluation at a time: on a small machine two benchmarks side by side would disturb each other's timings.
 * The runner registers a `runners` row so every replica's device list shows this machine's devices.
 */
export async function startInProcessRunner(ctx: AppContext): Promise<InProcessRunner> {
  const devices = await ctx.devices.localDevices();
  if (devices.length === 0) return { stop: async () => {} };
  const rows = await ctx.db.query<{ id: string }>(
    'INSERT INTO runners (name, devices, version, local) VALUES ($1, $2, $3, true) RETURNING id',
    [`in-process@${hostname()}:${process.pid}`, JSON.stringify(devices), 'in-process'],
  );
  const runnerId = (rows[0] as { id: string }).id;
  const seen = setInterval(() => {
    ctx.db.query('UPDATE runners SET last_seen_at = now() WHERE id = $1', [runnerId]).catch(() => {});
  }, SEEN_EVERY_MS);
  const halt = new AbortController();
  const loop = runLoop(ctx, runnerId, devices, halt.signal);
  return {
    async stop() {
      halt.abort();
      clearInterval(seen);
      await loop;
      // Gone now: the device list should not count this process any more.
      await ctx.db.query('DELETE FROM runners WHERE id = $1', [runnerId]).catch(() => {});
    },
  };
}

async function runLoop(ctx: AppContext, runnerId: string, devices: Device[], halt: AbortSignal): Promise<void> {
  while (!halt.aborted) {
    try {
      const job = await claimJob(ctx.db, {
        kinds: ['evaluate'],
        devices: devices.map((d) => d.id),
        runnerId,
        leaseSeconds: ctx.config.jobs.leaseSeconds,
      });
      if (!job) {
        await ctx.signals.wait(IDLE_POLL_MS, halt);
        continue;
      }
      await runEvaluateJob(ctx, job, devices, halt);
    } catch (err) {
      if (halt.aborted) return;
      ctx.log.error('in-process runner error', { err });
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

async function runEvaluateJob(ctx: AppContext, job: Job, devices: Device[], halt: AbortSignal): Promise<void> {
  const token = job.lease_token as string;
  const payload = job.payload as unknown as EvaluationJobPayload;
  const device = devices.find((d) => d.id === payload.device);
  const lease = new AbortController();
  const beat = setInterval(
    () => {
      heartbeatJob(ctx.db, job.id, token, ctx.config.jobs.leaseSeconds)
        .then((until) => {
          if (!until) lease.abort();
        })
        .catch(() => {});
    },
    Math.max(200, (ctx.config.jobs.leaseSeconds * 1000) / 3),
  );
  let report: Parameters<typeof recordEvaluation>[3];
  try {
    if (!device) throw new Error(`this server does not serve ${payload.device}`);
    const state = await evaluate(payload, {
      problems: await ctx.catalogue.definitions(),
      device,
      workDir: ctx.config.runner.workDir,
      signal: AbortSignal.any([lease.signal, halt]),
      timing: ctx.config.runner.timing,
    });
    report = { state };
  } catch (err) {
    report = { error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearInterval(beat);
  }
  // A lost lease or a shutdown: the job is (or will be) someone else's; a half-made result is not worth keeping.
  if (lease.signal.aborted || halt.aborted) return;
  await recordEvaluation(ctx, job.id, token, report);
}
