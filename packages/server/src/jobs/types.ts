// Rows and options of the leased job queue (the jobs table of migrations/0002_product.sql).
export type JobKind = 'generate' | 'evaluate';
export type JobStatus = 'queued' | 'leased' | 'done' | 'dead' | 'cancelled';

export interface Job<P = Record<string, unknown>> {
  id: string;
  kind: JobKind;
  payload: P;
  device: string | null;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  lease_token: string | null;
  lease_expires_at: Date | null;
  runner_id: string | null;
  last_error: string | null;
  dead_reason: string | null;
  session_id: string | null;
  /** When the current (or last) lease began; absent from rows of older code paths. */
  leased_at?: Date | null;
}

export interface EnqueueOptions {
  kind: JobKind;
  payload: Record<string, unknown>;
  device?: string | null;
  sessionId?: string | null;
  maxAttempts?: number;
  /** A second enqueue with the same key is a no-op while the first row exists. */
  dedupeKey?: string;
  delayMs?: number;
  /** Higher runs first among ready jobs (see JOB_PRIORITY); equal priorities run oldest first. */
  priority?: number;
  /** The user the job works for: claims share runners fairly between users (see claimJob). */
  ownerId?: string | null;
}

/**
 * Claim order: a submission (someone waiting on a verdict) before the first attempt of an instruction
 * (someone just asked for something) before the later attempts of a running session.
 */
export const JOB_PRIORITY = { submission: 20, firstAttempt: 10, laterAttempt: 0 } as const;

export interface ClaimOptions {
  kinds: JobKind[];
  /** Evaluate jobs: only these devices. Omit for jobs that any replica can run. */
  devices?: string[];
  runnerId: string;
  leaseSeconds: number;
}
