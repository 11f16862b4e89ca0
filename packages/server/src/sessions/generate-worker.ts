// Generate workers: claim `generate` jobs, run the session's agent for one attempt, store it and queue its evaluation.
import { AgentError, type AgentResult, agentsConfigFrom, createAgent } from '../agents/index.js';
import { claimJob, completeJob, failJob, heartbeatJob, lockLeasedJob } from '../jobs/queue.js';
import type { Job } from '../jobs/types.js';
import type { AppContext } from '../context.js';
import type { AttemptRow } from '../db/rows.js';
import { buildAgentContext } from './agent-context.js';
import { markEvaluating, markFailed, markGenerating } from './attempts.js';
import { finishInstruction, publish, queueEvaluation, settleSession } from './loop.js';
import { findAttempt, findSession } from './queries.js';

const IDLE_POLL_MS = 1000;
const DELTA_FLUSH_MS = 200;

export interface Workers {
  stop(): Promise<void>;
}

/** Starts `count` loops that each claim and run one generate job at a time. */
export function startGenerateWorkers(ctx: AppContext, count: number, name: string): Workers {
  const halt = new AbortController();
  const loops = Array.from({ length: count }, (_, i) => workerLoop(ctx, `${name}/generate-${i}`, halt.signal));
  return {
    async stop() {
      halt.abort();
      await Promise.allSettled(loops);
    },
  };
}

async function workerLoop(ctx: AppContext, workerId: string, halt: AbortSignal): Promise<void> {
  while (!halt.aborted) {
    let job: Job | null = null;
    try {
      job = await claimJob(ctx.db, {
        kinds: ['generate'],
        runnerId: workerId,
        leaseSeconds: ctx.config.jobs.leaseSeconds,
      });
      if (!job) {
        await ctx.signals.wait(IDLE_POLL_MS, halt);
        continue;
      }
      await runGenerateJob(ctx, job, halt);
    } catch (err) {
      if (halt.aborted) return;
      ctx.log.error('generate worker error', { workerId, job: job?.id, err });
      if (job?.lease_token) {
        const failed = await failJob(ctx.db, job.id, job.lease_token, errorText(err), { retryable: true }).catch(
          () => null,
        );
        if (failed?.outcome === 'dead' && failed.job) await settleDeadGeneration(ctx, failed.job).catch(() => {});
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/**
 * One attempt's generation. The agent runs outside any transaction; the result is written only while this
 * worker still holds the lease and the attempt is still `generating`, so a stop or a lost lease discards it.
 */
export async function runGenerateJob(ctx: AppContext, job: Job, halt: AbortSignal): Promise<void> {
  const token = job.lease_token as string;
  const attemptId = String((job.payload as { attempt_id?: unknown }).attempt_id ?? '');
  const attempt = await startAttempt(ctx, job, attemptId);
  if (!attempt) return;
  const session = await findSession(ctx.db, attempt.session_id);
  if (!session) return;

  const abort = new AbortController();
  const onHalt = () => abort.abort(new Error('server shutting down'));
  halt.addEventListener('abort', onHalt, { once: true });
  // A stop anywhere reaches this replica as an event; a lost lease shows at the next heartbeat.
  const unsubscribe = await ctx.bus.subscribe(session.id, await ctx.bus.lastEventId(session.id), ({ event }) => {
    const stopped =
      (event.type === 'attempt.updated' && event.attempt.id === attempt.id && event.attempt.status === 'stopped') ||
      (event.type === 'session.status' && event.status === 'stopped');
    if (stopped) abort.abort(new Error('stopped'));
  });
  const heartbeat = setInterval(
    () => {
      heartbeatJob(ctx.db, job.id, token, ctx.config.jobs.leaseSeconds)
        .then((at) => {
          if (!at) abort.abort(new Error('lease lost'));
        })
        .catch(() => {});
    },
    Math.max(200, (ctx.config.jobs.leaseSeconds * 1000) / 3),
  );
  let pending = '';
  const flush = async () => {
    if (!pending) return;
    const text = pending;
    pending = '';
    await publish(ctx, ctx.db, { type: 'attempt.delta', session_id: session.id, attempt_id: attempt.id, text }).catch(
      () => {},
    );
  };
  const flusher = setInterval(() => void flush(), DELTA_FLUSH_MS);

  try {
    const agentCtx = await buildAgentContext(ctx, session, attempt, abort.signal, (delta) => {
      pending += delta;
    });
    let result: AgentResult;
    try {
      // Inside the try: an unknown or unconfigured agent is a non-retryable AgentError like any provider failure.
      result = await createAgent(session.agent, agentsConfigFrom(ctx.config)).generate(agentCtx);
    } catch (err) {
      if (abort.signal.aborted) {
        await completeIfStopped(ctx, job);
        return;
      }
      const retryable = err instanceof AgentError ? err.retryable : true;
      const failed = await failJob(ctx.db, job.id, token, errorText(err), { retryable });
      if (failed.outcome === 'dead' && failed.job) await settleDeadGeneration(ctx, failed.job);
      return;
    }
    await flush();
    if (abort.signal.aborted) {
      await completeIfStopped(ctx, job);
      return;
    }
    await ctx.db.transaction(async (tx) => {
      const locked = await findSession(tx, session.id, { lock: true });
      if (!locked || !(await lockLeasedJob(tx, job.id, token))) return;
      const stored = await markEvaluating(ctx, tx, attempt.id, result);
      if (stored) {
        if (result.usage) {
          await tx.query(
            'UPDATE agent_sessions SET input_tokens = input_tokens + $2, output_tokens = output_tokens + $3 WHERE id = $1',
            [session.id, result.usage.input_tokens, result.usage.output_tokens],
          );
        }
        await queueEvaluation(ctx, tx, locked, stored);
      }
      await completeJob(tx, job.id, token);
    });
  } finally {
    clearInterval(heartbeat);
    clearInterval(flusher);
    halt.removeEventListener('abort', onHalt);
    unsubscribe();
  }
}

/** Moves the attempt to `generating` (a retried job finds it there already); null when there is nothing to do. */
async function startAttempt(ctx: AppContext, job: Job, attemptId: string): Promise<AttemptRow | null> {
  const token = job.lease_token as string;
  const current = await findAttempt(ctx.db, attemptId);
  if (!current || (current.status !== 'queued' && current.status !== 'generating')) {
    await completeJob(ctx.db, job.id, token);
    return null;
  }
  return ctx.db.transaction(async (tx) => {
    await findSession(tx, current.session_id, { lock: true });
    if (!(await lockLeasedJob(tx, job.id, token))) return null;
    const row = await markGenerating(ctx, tx, attemptId);
    if (!row) {
      await completeJob(tx, job.id, token);
      return null;
    }
    return row;
  });
}

/**
 * After an abort: a stop already marked the attempt and cancelled the job, so there is nothing to write.
 * A shutdown leaves the lease to expire, and the job runs again elsewhere.
 */
async function completeIfStopped(ctx: AppContext, job: Job): Promise<void> {
  const attemptId = String((job.payload as { attempt_id?: unknown }).attempt_id ?? '');
  const attempt = await findAttempt(ctx.db, attemptId);
  if (attempt && attempt.status !== 'generating') await completeJob(ctx.db, job.id, job.lease_token as string);
}

/** A generate job out of tries: its attempt fails with the reason, and its instruction ends. */
export function settleDeadGeneration(ctx: AppContext, job: Job): Promise<void> {
  const reason = job.dead_reason ?? job.last_error ?? 'failed';
  const attemptId = String((job.payload as { attempt_id?: unknown }).attempt_id ?? '');
  return ctx.db.transaction(async (tx) => {
    if (job.session_id) await findSession(tx, job.session_id, { lock: true });
    const attempt = await markFailed(ctx, tx, attemptId, `Generation failed: ${reason}`);
    // An agent that keeps failing (no key, provider down) would fail every further attempt the same way.
    if (attempt?.instruction_id) await finishInstruction(ctx, tx, attempt.instruction_id, 'completed');
    if (attempt) await settleSession(ctx, tx, attempt.session_id);
  });
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
