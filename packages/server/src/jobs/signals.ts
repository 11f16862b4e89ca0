// Wake-ups for job claimers: enqueue sends NOTIFY on one channel, so idle workers and long-polling runners claim at once.
import type { Sql } from '../db/sql.js';

export const JOBS_CHANNEL = 'kforge_jobs';

interface Listener {
  listen(channel: string, onPayload: (payload: string) => void, onResume?: () => void): Promise<() => Promise<void>>;
}

/** Sends the wake-up from inside the enqueuing transaction, so it arrives after the commit. */
export async function announceJob(tx: Sql, kind: string): Promise<void> {
  await tx.query('SELECT pg_notify($1, $2)', [JOBS_CHANNEL, kind]);
}

export class JobSignals {
  private readonly waiters = new Set<() => void>();
  private unlisten: Promise<() => Promise<void>> | null = null;
  /** Set by close(): long polls still open should answer now instead of touching a closing database. */
  closed = false;

  constructor(private readonly listener: Listener) {}

  /** Resolves after `ms`, or earlier when any job is enqueued anywhere (a claim must follow, since it may be for someone else). */
  async wait(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.closed) return;
    // A listener that fails (the database closed under it) leaves polling by the timer alone; the rejection is
    // handled where the promise is made, so it can never surface as an unhandled one.
    // After the LISTEN connection came back, everyone waiting claims at once (jobs queued meanwhile woke no one).
    this.unlisten ??= this.listener
      .listen(
        JOBS_CHANNEL,
        () => this.wakeAll(),
        () => this.wakeAll(),
      )
      .catch(() => async () => {});
    await this.unlisten;
    if (signal?.aborted) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  wakeAll(): void {
    for (const w of [...this.waiters]) w();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wakeAll();
    const un = this.unlisten;
    this.unlisten = null;
    if (un) await (await un)().catch(() => {});
  }
}
