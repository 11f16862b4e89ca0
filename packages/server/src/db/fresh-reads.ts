// Identical reads asked for at once share one round trip, without any caller getting rows read before it asked.

/**
 * Shares a read among the callers that ask for the same key while it waits to start, never one already running: a
 * caller that comes while the read for its key runs waits for the next one, which starts when that one ends and
 * serves everyone who came meanwhile. So every caller gets rows from a statement that began after it asked (on
 * Postgres, READ COMMITTED: it sees everything committed before it asked), exactly as if it had run its own, and a
 * key costs at most one read in flight however many requests want it. For the read made on every authenticated
 * request (http/auth.ts): a revoked token or a deactivated user is refused from the first request after the change,
 * as before; a busy client polling one session no longer costs one round trip per request.
 *
 * The callers of a shared read get the same result object: treat it as read-only.
 */
export class FreshReads {
  /** The read now running for a key. */
  private readonly running = new Map<string, Promise<unknown>>();
  /** The read that starts when the running one ends, shared by everyone who asked since it began. */
  private readonly next = new Map<string, Promise<unknown>>();

  read<T>(key: string, run: () => Promise<T>): Promise<T> {
    const queued = this.next.get(key);
    if (queued) return queued as Promise<T>;
    const current = this.running.get(key);
    if (!current) return this.start(key, run);
    const after = current.then(
      () => this.start(key, run),
      () => this.start(key, run),
    );
    this.next.set(key, after);
    return after;
  }

  /** How many keys have a read running (tests). */
  get inFlight(): number {
    return this.running.size;
  }

  private start<T>(key: string, run: () => Promise<T>): Promise<T> {
    this.next.delete(key);
    const p = run();
    this.running.set(key, p);
    const done = () => {
      if (this.running.get(key) === p) this.running.delete(key);
    };
    p.then(done, done);
    return p;
  }
}
