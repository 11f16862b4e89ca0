// Event tickets: short-lived, single-use, stored hashed, so an EventSource URL never carries a bearer token.
import { EVENT_TICKET_SECONDS } from '@kernelforge/sdk';
import { randomToken, sha256 } from '../auth/secrets.js';
import type { Sql } from '../db/sql.js';

export async function issueEventTicket(
  db: Sql,
  userId: string,
  sessionId: string,
): Promise<{ ticket: string; expires_at: string }> {
  const ticket = `kfe_${randomToken()}`;
  const r = await db.query<{ expires_at: Date }>(
    `INSERT INTO event_tickets (ticket_hash, user_id, session_id, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING expires_at`,
    [sha256(ticket), userId, sessionId, EVENT_TICKET_SECONDS],
  );
  // Spent and expired tickets only cost space; sweeping here keeps the table small without a background job.
  await db.query('DELETE FROM event_tickets WHERE expires_at < now()');
  return { ticket, expires_at: new Date((r[0] as { expires_at: Date }).expires_at).toISOString() };
}

/** The user a ticket was issued to, for that session only; the ticket is spent by this call. Null when unknown, spent, expired or for another session. */
export async function redeemEventTicket(db: Sql, ticket: string, sessionId: string): Promise<string | null> {
  if (ticket.length > 200) return null;
  const r = await db.query<{ user_id: string; session_id: string }>(
    'DELETE FROM event_tickets WHERE ticket_hash = $1 AND expires_at > now() RETURNING user_id, session_id::text',
    [sha256(ticket)],
  );
  const row = r[0];
  return row && row.session_id === sessionId ? row.user_id : null;
}

/** Open event streams per user in this process, so one user cannot hold thousands of connections. */
export class StreamCounter {
  private readonly open = new Map<string, number>();
  constructor(private readonly perUser: number) {}

  /** A release function, or null when the user already has `perUser` streams open here. */
  acquire(userId: string): (() => void) | null {
    const n = this.open.get(userId) ?? 0;
    if (this.perUser > 0 && n >= this.perUser) return null;
    this.open.set(userId, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(userId) ?? 1) - 1;
      if (left <= 0) this.open.delete(userId);
      else this.open.set(userId, left);
    };
  }
}
