// Session events: stored in session_events (the replay buffer) and announced with NOTIFY so every replica's SSE streams see them.
import type { SessionEvent } from '@kernelforge/sdk';
import type { Sql } from '../db/sql.js';

export const EVENTS_CHANNEL = 'kforge_session_events';

export interface StoredEvent {
  id: number;
  event: SessionEvent;
}

/** The part of the platform's Database the bus needs for fan-out. */
export interface Listener {
  listen(channel: string, onPayload: (payload: string) => void, onResume?: () => void): Promise<() => Promise<void>>;
}

type Handler = (event: StoredEvent) => void;

interface Subscriber {
  lastId: number;
  handler: Handler;
  // Fetches run one after another per subscriber, so events arrive once and in order.
  chain: Promise<void>;
}

export class EventBus {
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  private unlisten: Promise<() => Promise<void>> | null = null;

  constructor(private readonly db: Sql & Listener) {}

  /**
   * Stores the event and notifies through `tx`: inside a transaction the NOTIFY is delivered at commit,
   * so nobody hears of a change that rolled back. The notice carries only ids (NOTIFY payloads cap at 8000 bytes).
   */
  async publish(tx: Sql, event: SessionEvent): Promise<void> {
    const rows = await tx.query<{ id: string }>(
      'INSERT INTO session_events (session_id, type, payload) VALUES ($1, $2, $3) RETURNING id::text AS id',
      [event.session_id, event.type, JSON.stringify(event)],
    );
    const id = rows[0]?.id;
    await tx.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, JSON.stringify({ s: event.session_id, id })]);
  }

  /**
   * Events of a session after `afterId`, oldest first (the SSE replay for Last-Event-ID). ORDER BY names the table's
   * column: a bare `id` would be the text alias of the select list and put '10' before '9'.
   */
  async eventsAfter(sessionId: string, afterId: number, limit = 1000): Promise<StoredEvent[]> {
    const rows = await this.db.query<{ id: string; payload: SessionEvent }>(
      'SELECT id::text AS id, payload FROM session_events WHERE session_id = $1 AND id > $2 ORDER BY session_events.id LIMIT $3',
      [sessionId, afterId, limit],
    );
    return rows.map((r) => ({ id: Number(r.id), event: r.payload }));
  }

  /** The newest event id of a session (0 when none), where a fresh subscriber without Last-Event-ID starts. */
  async lastEventId(sessionId: string): Promise<number> {
    const rows = await this.db.query<{ id: string | null }>(
      'SELECT max(id)::text AS id FROM session_events WHERE session_id = $1',
      [sessionId],
    );
    return Number(rows[0]?.id ?? 0);
  }

  /**
   * Calls `handler` for every event of the session stored after `afterId`, from any replica.
   * Returns the unsubscribe function.
   */
  async subscribe(sessionId: string, afterId: number, handler: Handler): Promise<() => void> {
    await this.ensureListening();
    const sub: Subscriber = { lastId: afterId, handler, chain: Promise.resolve() };
    let set = this.subscribers.get(sessionId);
    if (!set) {
      set = new Set();
      this.subscribers.set(sessionId, set);
    }
    set.add(sub);
    // Catch up on anything stored between the caller's read and the LISTEN taking effect.
    this.pull(sessionId, sub);
    return () => {
      const current = this.subscribers.get(sessionId);
      current?.delete(sub);
      if (current && current.size === 0) this.subscribers.delete(sessionId);
    };
  }

  async close(): Promise<void> {
    this.subscribers.clear();
    const un = this.unlisten;
    this.unlisten = null;
    if (un) await (await un)().catch(() => {});
  }

  private ensureListening(): Promise<unknown> {
    // After the LISTEN connection came back (a database restart), every subscriber fetches what it missed.
    this.unlisten ??= this.db
      .listen(
        EVENTS_CHANNEL,
        (payload) => this.onNotice(payload),
        () => this.resumeAll(),
      )
      .catch((err) => {
        // Not listening: the next subscriber tries again.
        this.unlisten = null;
        throw err;
      });
    return this.unlisten;
  }

  private resumeAll(): void {
    for (const [sessionId, subs] of this.subscribers) for (const sub of subs) this.pull(sessionId, sub);
  }

  private onNotice(payload: string): void {
    let sessionId: string;
    try {
      sessionId = (JSON.parse(payload) as { s: string }).s;
    } catch {
      return;
    }
    for (const sub of this.subscribers.get(sessionId) ?? []) this.pull(sessionId, sub);
  }

  private pull(sessionId: string, sub: Subscriber): void {
    sub.chain = sub.chain
      .then(async () => {
        const events = await this.eventsAfter(sessionId, sub.lastId);
        for (const e of events) {
          sub.lastId = e.id;
          sub.handler(e);
        }
      })
      .catch(() => {
        // A failed fetch (database closing) is retried by the next notice.
      });
  }
}

/** Drops stored events older than the retention window; the replay buffer is for reconnects, not history. */
export async function pruneEvents(sql: Sql, olderThanHours = 24): Promise<void> {
  await sql.query('DELETE FROM session_events WHERE created_at < now() - make_interval(hours => $1)', [olderThanHours]);
}
