// Background work of one server process: generate workers, the in-process runner and the lease reaper.
import { hostname } from 'node:os';
import type { AppContext } from './context.js';
import { ensurePrivateDir } from './db/private-dir.js';
import { pruneEvents } from './events/bus.js';
import { reapExpiredLeases } from './jobs/queue.js';
import { noteReaped } from './jobs/telemetry.js';
import { startInProcessRunner } from './runner-host/in-process-runner.js';
import { settleDeadJob, settleRequeuedJobs } from './domain/evaluation/results.js';
import { startGenerateWorkers } from './domain/attempts/generate-worker.js';

export interface Background {
  stop(): Promise<void>;
}

const PRUNE_EVERY_MS = 3_600_000;

/** Starts the in-process runner (when configured), agent workers and lease reaper; stop() before closing the database. */
export async function startBackground(ctx: AppContext): Promise<Background> {
  // The runner builds and runs candidates in its work folder: refuse to start on one another user could reach.
  if (ctx.config.localRunner) ensurePrivateDir(ctx.config.runner.workDir);
  const name = `${hostname()}:${process.pid}`;
  const workers = startGenerateWorkers(ctx, ctx.config.jobs.generateWorkers, name);
  const reaper = startReaper(ctx);
  const runner = ctx.config.localRunner ? await startInProcessRunner(ctx) : null;
  return {
    async stop() {
      reaper.stop();
      await Promise.all([runner?.stop(), workers.stop()]);
      await ctx.signals.close();
      await ctx.bus.close();
    },
  };
}

/**
 * Whether runners' silence can be trusted now: not while the database is (or was, within the window) out of reach,
 * nor in this process's first window, when runners could not reach any server to say they live.
 */
function silenceCounts(ctx: AppContext, started: number): boolean {
  const health = ctx.db.health();
  const windowMs = ctx.config.runner.deadSeconds * 1000;
  return health.ok && Date.now() - Math.max(started, health.since.getTime()) >= windowMs;
}

/**
 * Logs each runner the moment it counts as dead (silent for the window), once per replica; one that talks again is
 * forgotten, so a second silence is logged again.
 */
async function noteSilentRunners(ctx: AppContext, seconds: number, known: Set<string>): Promise<void> {
  const rows = await ctx.db.query<{ id: string; name: string; last_seen_at: Date }>(
    `SELECT id::text AS id, name, last_seen_at FROM runners
     WHERE last_seen_at < now() - make_interval(secs => $1) AND last_seen_at > now() - interval '1 hour'`,
    [seconds],
  );
  const now = new Set(rows.map((r) => r.id));
  for (const id of known) if (!now.has(id)) known.delete(id);
  for (const r of rows) {
    if (known.has(r.id)) continue;
    known.add(r.id);
    ctx.log.warn('runner stopped answering; it counts as dead', {
      runner: r.id,
      name: r.name,
      last_seen_at: new Date(r.last_seen_at).toISOString(),
      dead_after_seconds: seconds,
    });
  }
}

/**
 * Requeues expired leases, and evaluations whose runner went silent (settling the jobs that ran out of tries), and
 * prunes old events.
 */
function startReaper(ctx: AppContext): { stop(): void } {
  let busy = false;
  let lastPrune = 0;
  const started = Date.now();
  const silent = new Set<string>();
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const silentSeconds = silenceCounts(ctx, started) ? ctx.config.runner.deadSeconds : null;
      // One transaction: a requeued job's submission is back to queued before any runner can claim the job again.
      const { requeued, dead, holders } = await ctx.db.transaction(async (tx) => {
        const reaped = await reapExpiredLeases(tx, { silentSeconds });
        await settleRequeuedJobs(tx, reaped.requeued);
        return reaped;
      });
      noteReaped(ctx, requeued, dead, holders);
      if (silentSeconds !== null) await noteSilentRunners(ctx, silentSeconds, silent);
      if (requeued.length > 0) ctx.signals.wakeAll();
      for (const job of dead) await settleDeadJob(ctx, job);
      if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
        lastPrune = Date.now();
        await pruneEvents(ctx.db);
      }
    } catch (err) {
      if (!ctx.db.outage(err, 'lease reaper failed')) ctx.log.warn('lease reaper failed', { err });
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), ctx.config.jobs.reaperIntervalMs);
  void tick();
  return { stop: () => clearInterval(timer) };
}
