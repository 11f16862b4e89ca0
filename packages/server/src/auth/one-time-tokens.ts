// Magic-link and email-verification tokens: random, stored hashed, single use, 15 minutes.
import type { Sql } from '../db/sql.js';
import { randomToken, sha256 } from './secrets.js';

export type OneTimePurpose = 'magic_link' | 'email_verification' | 'email_change';

export const ONE_TIME_TOKEN_TTL_MS = 15 * 60 * 1000;

export async function issueOneTimeToken(
  db: Sql,
  purpose: OneTimePurpose,
  email: string,
  payload: Record<string, unknown> = {},
  ttlMs: number = ONE_TIME_TOKEN_TTL_MS,
): Promise<string> {
  const token = randomToken();
  await db.query(
    `INSERT INTO one_time_tokens (purpose, token_hash, email, payload, expires_at)
     VALUES ($1, $2, $3, $4::jsonb, now() + ($5::text || ' milliseconds')::interval)`,
    [purpose, sha256(token), email, JSON.stringify(payload), String(ttlMs)],
  );
  // Old rows only cost space; sweeping here keeps the table small without a background job.
  await db.query("DELETE FROM one_time_tokens WHERE expires_at < now() - interval '1 day'");
  return token;
}

/**
 * Marks the token used and returns its email and payload, or null when it is unknown, expired or already used.
 * One UPDATE ... WHERE used_at IS NULL makes two concurrent uses of one token succeed at most once.
 */
export async function consumeOneTimeToken(
  db: Sql,
  purpose: OneTimePurpose,
  token: string,
): Promise<{ email: string; payload: Record<string, unknown> } | null> {
  const r = await db.query<{ email: string; payload: Record<string, unknown> }>(
    `UPDATE one_time_tokens SET used_at = now()
     WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
     RETURNING email, payload`,
    [sha256(token), purpose],
  );
  return r[0] ?? null;
}
