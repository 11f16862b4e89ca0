// Generate workers: claim `generate` jobs, run the session's agent for one attempt, store it and queue its evaluation.
import { AgentError, type AgentResult, agentsConfigFrom, createAgent } from '../agents/index.js';
import { claimJob, completeJob, failJob, heartbeatJob, lockLeasedJob } from '../jobs/queue.js';
import type { Job } from '../jobs/types.js';
import { settleDeadJob } from '../services/evaluation-results.js';
import type { Product } from '../services/product.js';
import type { AttemptRow } from '../services/rows.js';
import { buildAgentContext } from './agent-context.js';
import { markEvaluating, markGenerating } from './attempts.js';
import { publish, queueEvaluation } from './loop.js';
import { findAttempt, findSession } from './queries.js';

const IDLE_POLL_MS = 1000;
const DELTA_FLUSH_MS = 200;

export interface Workers {
  stop(): Promise<void>;
}

/** Starts `count` loops that each claim and run one generate job at a time. */
export function startGenerateWorkers(p: Product, count: number, name: string): Workers {
  const halt = new AbortController();
  const loops = Array.from({ length: count }, (_, i) => workerLoop(p, `${name}/generate-${i}`, halt.signal));
  return {
    async stop() {
      halt.abort();
      await Promise.allSettled(loops);
    },
  };
}

async function workerLoop(p: Product, workerId: string, halt: AbortSignal): Promise<void> {
  while (!halt.aborted) {
    let job: Job | null = null;
    try {
      job = await claimJob(p.sql, {
        kinds: ['generate'],
        runnerId: workerId,
        leaseSeconds: p.config.jobs.leaseSeconds,
      });
      if (!job) {
        await p.signals.wait(IDLE_POLL_MS, halt);
        continue;
      }
      await runGenerateJob(p, job, halt);
    } catch (err) {
      if (halt.aborted) return;
      p.log.error('generate worker error', { workerId, job: job?.id, err });
      if (job?.lease_token) {
        const failed = await failJob(p.sql, job.id, job.lease_token, errorText(err), { retryable: true }).catch(
          () => null,
        );
        if (failed?.outcome === 'dead' && failed.job) await settleDeadJob(p, failed.job).catch(() => {});
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/**
 * One attempt's generation. The agent runs outside any transaction; the result is written only while this
 * worker still holds the lease and the attempt is still `generating`, so a stop or a lost lease discards it.
 */
export async function runGenerateJob(p: Product, job: Job, halt: AbortSignal): Promise<void> {
  const token = job.lease_token as string;
  const attemptId = String((job.payload as { attempt_id?: unknown }).attempt_id ?? '');
  const attempt = await startAttempt(p, job, attemptId);
  if (!attempt) return;
  const session = await findSession(p.sql, attempt.session_id);
  if (!session) return;

  const abort = new AbortController();
  const onHalt = () => abort.abort(new Error('server shutting down'));
  halt.addEventListener('abort', onHalt, { once: true });
  // A stop anywhere reaches this replica as an event; a lost lease shows at the next heartbeat.
  const unsubscribe = await p.bus.subscribe(session.id, await p.bus.lastEventId(session.id), ({ event }) => {
    const stopped =
      (event.type === 'attempt.status' && event.attempt_id === attempt.id && event.status === 'stopped') ||
      (event.type === 'session.status' && event.status === 'stopped');
    if (stopped) abort.abort(new Error('stopped'));
  });
  const heartbeat = setInterval(
    () => {
      heartbeatJob(p.sql, job.id, token, p.config.jobs.leaseSeconds)
        .then((at) => {
          if (!at) abort.abort(new Error('lease lost'));
        })
        .catch(() => {});
    },
    Math.max(200, (p.config.jobs.leaseSeconds * 1000) / 3),
  );
  let pending = '';
  const flush = async () => {
    if (!pending) return;
    const text = pending;
    pending = '';
    await publish(p, p.sql, { type: 'attempt.delta', session_id: session.id, attempt_id: attempt.id, text }).catch(
      () => {},
    );
  };
  const flusher = setInterval(() => void flush(), DELTA_FLUSH_MS);

  try {
    const ctx = await buildAgentContext(p, session, attempt, abort.signal, (delta) => {
      pending += delta;
    });
    let result: AgentResult;
    try {
      // Inside the try: an unknown or unconfigured agent is a non-retryable AgentError like any provider failure.
      result = await createAgent(session.agent, agentsConfigFrom(p.config)).generate(ctx);
    } catch (err) {
      if (abort.signal.aborted) {
        await completeIfStopped(p, job);
        return;
      }
      const retryable = err instanceof AgentError ? err.retryable : true;
      const failed = await failJob(p.sql, job.id, token, errorText(err), { retryable });
      if (failed.outcome === 'dead' && failed.job) await settleDeadJob(p, failed.job);
      return;
    }
    await flush();
    if (abort.signal.aborted) {
      await completeIfStopped(p, job);
      return;
    }
    await p.sql.transaction(async (tx) => {
      const locked = await findSession(tx, session.id, { lock: true });
      if (!locked || !(await lockLeasedJob(tx, job.id, token))) return;
      const stored = await markEvaluating(p, tx, attempt.id, result);
      if (stored) {
        if (result.usage) {
          await tx.query(
            'UPDATE agent_sessions SET input_tokens = input_tokens + $2, output_tokens = output_tokens + $3 WHERE id = $1',
            [session.id, result.usage.input_tokens, result.usage.output_tokens],
          );
        }
        await queueEvaluation(p, tx, locked, stored);
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
async function startAttempt(p: Product, job: Job, attemptId: string): Promise<AttemptRow | null> {
  const token = job.lease_token as string;
  const current = await findAttempt(p.sql, attemptId);
  if (!current || (current.status !== 'queued' && current.status !== 'generating')) {
    await completeJob(p.sql, job.id, token);
    return null;
  }
  return p.sql.transaction(async (tx) => {
    await findSession(tx, current.session_id, { lock: true });
    if (!(await lockLeasedJob(tx, job.id, token))) return null;
    const row = await markGenerating(p, tx, attemptId);
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
async function completeIfStopped(p: Product, job: Job): Promise<void> {
  const attemptId = String((job.payload as { attempt_id?: unknown }).attempt_id ?? '');
  const attempt = await findAttempt(p.sql, attemptId);
  if (attempt && attempt.status !== 'generating') await completeJob(p.sql, job.id, job.lease_token as string);
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
