// What an evaluate job is for, seen from the queue: each target (an attempt, a submission, a sweep problem) says what
// a claim, a requeue, a result and a dead job mean for it. registry.ts holds one per `payload.kind`; results.ts routes
// every evaluation outcome through it, whoever ran the job.
import type { EvaluationState } from '@kernelforge/sdk';
import type { AppContext } from '../../context.js';
import type { Sql } from '../../db/sql.js';

export interface EvaluationTarget {
  /** A runner leased the job (in the claim's transaction). */
  onClaim?(tx: Sql, targetId: string): Promise<void>;
  /** The job went back to the queue (a retryable runner error, a lapsed lease); `lastError` says why. */
  onRequeue?(tx: Sql, targetId: string, lastError: string | null): Promise<void>;
  /** The runner's report, in the transaction that completes the job (the session, if any, locked first). */
  onResult(ctx: AppContext, tx: Sql, targetId: string, state: EvaluationState): Promise<void>;
  /** The job ran out of tries: `reason` is its dead reason or last error. */
  onDead(ctx: AppContext, tx: Sql, targetId: string, reason: string): Promise<void>;
  /** After the transaction that wrote a result or a dead job's outcome committed: what may follow it (a mail), never
      awaited by the writer and never failing it. */
  afterOutcome?(ctx: AppContext, targetId: string): void;
}
