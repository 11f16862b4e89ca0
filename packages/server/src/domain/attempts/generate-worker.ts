// Generate workers: claim `generate` jobs on the one lease loop, run the session's agent for one attempt, and hand
// the candidate to lifecycle.ts (`markEvaluating` stores it and enqueues its evaluation).
import { AgentError, type AgentResult, agentsConfigFrom, createAgent } from '../../agents/index.js';
import { type LeaseWorker, runLeaseLoop, type Settled } from '@kernelforge/runner';
import { claimJob, completeJob, failJob, heartbeatJob, lockLeasedJob } from '../../jobs/queue.js';
import { noteDead, noteRetry } from '../../jobs/telemetry.js';
import type { Job } from '../../jobs/types.js';
import type { AppContext } from '../../context.js';
import type { AttemptRow, SessionRow } from '../../db/rows.js';
import { buildAgentContext } from './agent-context.js';
import { markEvaluating, markFailed, markGenerating } from './lifecycle.js';
import { finishInstruction, publish, settleSession } from '../sessions/instruction-chain.js';
import { findAttempt, findSession } from '../sessions/queries.js';

const IDLE_POLL_MS = 1000;
const DELTA_FLUSH_MS = 200;

export interface Workers {
  stop(): Promise<void>;
}

/** What one generation came to (a thrown error reaches `report` as the lease loop's `{ error }`). */
type Generation =
  /** Nothing to write: the attempt had ended before it started (its job is completed already). */
  | { kind: 'nothing' }
  /** A stop reached the attempt while the agent wrote it. */
  | { kind: 'stopped' }
  | { kind: 'written'; attempt: AttemptRow; session: SessionRow; result: AgentResult };

/**
 * Starts `count` loops that each claim and run one generate job at a time, on the runner package's lease loop
 * (`runLeaseLoop`: the loop both runners evaluate on), so claim, heartbeat, lost lease and shutdown mean the same
 * for every job kind.
 */
export function startGenerateWorkers(ctx: AppContext, count: number, name: string): Workers {
  const halt = new AbortController();
  const loops = Array.from({ length: count }, (_, i) =>
    runLeaseLoop(generateWorker(ctx, `${name}/generate-${i}`), halt.signal),
  );
  return {
    async stop() {
      halt.abort(new Error('server shutting down'));
      await Promise.allSettled(loops);
    },
  };
}

function generateWorker(ctx: AppContext, workerId: string): LeaseWorker<Job, Generation> {
  return {
    async claim(halt) {
      try {
        const job = await claimJob(ctx.db, {
          kinds: ['generate'],
          runnerId: workerId,
          leaseSeconds: ctx.config.jobs.leaseSeconds,
        });
        if (!job) await ctx.signals.wait(IDLE_POLL_MS, halt);
        return job;
      } catch (err) {
        if (halt.aborted) return null;
        if (!ctx.db.outage(err, 'generate worker error')) ctx.log.error('generate worker error', { workerId, err });
        await new Promise((r) => setTimeout(r, 500));
        return null;
      }
    },
    async heartbeat(job) {
      return (await heartbeatJob(ctx.db, job.id, job.lease_token as string, ctx.config.jobs.leaseSeconds)) !== null;
    },
    heartbeatMs: () => Math.max(200, (ctx.config.jobs.leaseSeconds * 1000) / 3),
    work: (job, signal) => generate(ctx, job, signal),
    async report(job, outcome) {
      try {
        await settleGeneration(ctx, job, outcome);
      } catch (err) {
        // The store failed (database trouble): the job goes back to the queue for another try.
        if (!ctx.db.outage(err, 'generate worker error'))
          ctx.log.error('generate worker error', { workerId, job: job.id, err });
        await failGeneration(ctx, job, err, true).catch(() => {});
        await new Promise((r) => setTimeout(r, 500));
      }
    },
  };
}

/**
 * One attempt's generation: the agent runs outside any transaction, under `signal` (a lost lease or a shutdown,
 * from the loop) and a stop of the attempt or its session (an event, from any replica). Its result is written by
 * `settleGeneration` only while this worker still holds the lease and the attempt is still `generating`.
 */
async function generate(ctx: AppContext, job: Job, signal: AbortSignal): Promise<Generation> {
  const attemptId = String((job.payload as { attempt_id?: unknown }).attempt_id ?? '');
  const attempt = await startAttempt(ctx, job, attemptId);
  if (!attempt) return { kind: 'nothing' };
  const session = await findSession(ctx.db, attempt.session_id);
  if (!session) return { kind: 'nothing' };

  const stop = new AbortController();
  const abort = AbortSignal.any([signal, stop.signal]);
  const unsubscribe = await ctx.bus.subscribe(session.id, await ctx.bus.lastEventId(session.id), ({ event }) => {
    const stopped =
      (event.type === 'attempt.updated' && event.attempt.id === attempt.id && event.attempt.status === 'stopped') ||
      (event.type === 'session.status' && event.status === 'stopped');
    if (stopped) stop.abort(new Error('stopped'));
  });
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
    const agentCtx = await buildAgentContext(ctx, session, attempt, abort, (delta) => {
      pending += delta;
    });
    let result: AgentResult;
    try {
      // Inside the try: an unknown or unconfigured agent is a non-retryable AgentError like any provider failure.
      result = await createAgent(session.agent, agentsConfigFrom(ctx.config)).generate(agentCtx);
    } catch (err) {
      if (abort.aborted) return { kind: 'stopped' };
      throw err;
    }
    await flush();
    return abort.aborted ? { kind: 'stopped' } : { kind: 'written', attempt, session, result };
  } finally {
    clearInterval(flusher);
    unsubscribe();
  }
}

/** Lands a generation's outcome; the loop calls it only while the lease was held to the end. */
async function settleGeneration(ctx: AppContext, job: Job, outcome: Settled<Generation>): Promise<void> {
  if ('error' in outcome) {
    const retryable = outcome.error instanceof AgentError ? outcome.error.retryable : true;
    if (!(outcome.error instanceof AgentError))
      ctx.log.error('generate worker error', { job: job.id, err: outcome.error });
    await failGeneration(ctx, job, outcome.error, retryable);
    return;
  }
  const generation = outcome.value;
  if (generation.kind === 'stopped') await completeIfStopped(ctx, job);
  if (generation.kind !== 'written') return;
  const { attempt, session, result } = generation;
  const token = job.lease_token as string;
  await ctx.db.transaction(async (tx) => {
    const locked = await findSession(tx, session.id, { lock: true });
    if (!locked || !(await lockLeasedJob(tx, job.id, token))) return;
    const stored = await markEvaluating(ctx, tx, locked, attempt.id, result);
    if (stored && result.usage) {
      await tx.query(
        'UPDATE agent_sessions SET input_tokens = input_tokens + $2, output_tokens = output_tokens + $3 WHERE id = $1',
        [session.id, result.usage.input_tokens, result.usage.output_tokens],
      );
    }
    await completeJob(tx, job.id, token);
  });
}

/** A failed try: back to the queue after a backoff when retryable with tries left, else the attempt fails. */
async function failGeneration(ctx: AppContext, job: Job, err: unknown, retryable: boolean): Promise<void> {
  const failed = await failJob(ctx.db, job.id, job.lease_token as string, errorText(err), { retryable });
  if (failed.outcome === 'retry' && failed.job) noteRetry(ctx, failed.job, errorText(err));
  if (failed.outcome === 'dead' && failed.job) {
    noteDead(ctx, failed.job);
    await settleDeadGeneration(ctx, failed.job);
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
 * After a stop: it already marked the attempt and cancelled the job, so there is nothing to write. (A shutdown or
 * a lost lease never gets here: the loop drops the outcome, and the job runs again once its lease lapses.)
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
