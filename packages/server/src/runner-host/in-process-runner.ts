// The in-process runner: this server evaluates jobs for the devices its own machine has, straight from the jobs table.
import { hostname } from 'node:os';
import { type JobSource, runJobLoop } from '@kernelforge/runner';
import type { EvaluationJobPayload } from '@kernelforge/sdk';
import type { AppContext } from '../context.js';
import { heartbeatJob } from '../jobs/queue.js';
import type { Job } from '../jobs/types.js';
import { claimEvaluation, recordEvaluation } from '../domain/evaluation/results.js';

const IDLE_POLL_MS = 1000;

export interface InProcessRunner {
  stop(): Promise<void>;
}

/**
 * The runner package's job loop over the jobs table: one evaluation at a time (on a small machine two benchmarks
 * side by side would disturb each other's timings). It registers a `runners` row so every replica's device list
 * shows this machine's devices.
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
    // As often as a standalone runner beats: silent for KFORGE_RUNNER_DEAD_HEARTBEATS of them, it counts as dead.
  }, ctx.config.runner.heartbeatSeconds * 1000);
  const halt = new AbortController();
  const loop = runJobLoop(
    jobsTable(
      ctx,
      runnerId,
      devices.map((d) => d.id),
    ),
    {
      devices,
      problems: () => ctx.catalogue.definitions(),
      workDir: ctx.config.runner.workDir,
      timing: ctx.config.runner.timing,
      allowUnsandboxed: ctx.config.runner.allowUnsandboxed,
      // KFORGE_PYTHON and KFORGE_JOB_CGROUP, read once into the server's config; the runner reads no environment.
      python: ctx.config.runner.python,
      jobCgroup: ctx.config.runner.jobCgroup,
      heartbeatMs: () => Math.max(200, ctx.config.runner.heartbeatSeconds * 1000),
      who: 'server',
    },
    halt.signal,
  );
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

/** Evaluate jobs claimed from the jobs table, leased to this runner; results land through recordEvaluation. */
function jobsTable(ctx: AppContext, runnerId: string, deviceIds: string[]): JobSource<Job<EvaluationJobPayload>> {
  return {
    async claim(halt) {
      try {
        const job = await claimEvaluation(ctx, {
          devices: deviceIds,
          runnerId,
          leaseSeconds: ctx.config.jobs.leaseSeconds,
        });
        if (!job) await ctx.signals.wait(IDLE_POLL_MS, halt);
        return job as Job<EvaluationJobPayload> | null;
      } catch (err) {
        if (halt.aborted) return null;
        if (!ctx.db.outage(err, 'in-process runner error')) ctx.log.error('in-process runner error', { err });
        await new Promise((r) => setTimeout(r, 500));
        return null;
      }
    },
    async heartbeat(job, progress) {
      const until = await heartbeatJob(
        ctx.db,
        job.id,
        job.lease_token as string,
        ctx.config.jobs.leaseSeconds,
        progress,
      );
      return until !== null;
    },
    async report(job, outcome) {
      try {
        await recordEvaluation(ctx, job.id, job.lease_token as string, outcome);
      } catch (err) {
        if (!ctx.db.outage(err, 'in-process runner error')) ctx.log.error('in-process runner error', { err });
      }
    },
  };
}
