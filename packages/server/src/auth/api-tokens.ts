// API tokens: `kf_` + 32 random bytes, shown once, stored as sha256, revocable, optionally expiring, scoped.
import { type ApiToken, type CreatedApiToken, TOKEN_SCOPES, type TokenScope } from '@kernelforge/sdk';
import type { Sql } from '../db/sql.js';
import { randomToken, sha256 } from './secrets.js';

export const API_TOKEN_PREFIX = 'kf_';

interface TokenRecord {
  id: string;
  name: string;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  scopes: string[];
}

const COLUMNS = 'id, name, prefix, created_at, last_used_at, expires_at, scopes';
const asScopes = (scopes: string[]): TokenScope[] => TOKEN_SCOPES.filter((s) => scopes.includes(s));
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function toWire(t: TokenRecord): ApiToken {
  return {
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    created_at: new Date(t.created_at).toISOString(),
    last_used_at: iso(t.last_used_at),
    expires_at: iso(t.expires_at),
    scopes: asScopes(t.scopes),
  };
}

export async function createApiToken(
  db: Sql,
  userId: string,
  name: string,
  expiresInDays?: number,
  scopes: readonly TokenScope[] = TOKEN_SCOPES,
): Promise<CreatedApiToken> {
  const token = `${API_TOKEN_PREFIX}${randomToken()}`;
  const r = await db.query<TokenRecord>(
    `INSERT INTO api_tokens (user_id, name, prefix, token_hash, expires_at, scopes)
     VALUES ($1, $2, $3, $4, CASE WHEN $5::int IS NULL THEN NULL ELSE now() + make_interval(days => $5::int) END, $6)
     RETURNING ${COLUMNS}`,
    [userId, name, token.slice(0, 7), sha256(token), expiresInDays ?? null, asScopes([...scopes])],
  );
  return { ...toWire(r[0] as TokenRecord), token };
}

/** Live tokens only: revoked ones disappear from the list. */
export async function listApiTokens(db: Sql, userId: string): Promise<ApiToken[]> {
  const r = await db.query<TokenRecord>(
    `SELECT ${COLUMNS} FROM api_tokens WHERE user_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC`,
    [userId],
  );
  return r.map(toWire);
}

/** False when the id is not one of this user's live tokens (the route answers 404 then, also for other users' ids). */
export async function revokeApiToken(db: Sql, userId: string, id: string): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
  const r = await db.query(
    'UPDATE api_tokens SET revoked_at = now() WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id',
    [id, userId],
  );
  return r.length > 0;
}

/**
 * What finds a live, unexpired token by its hash (`$1`, see apiTokenHash) as `t`, for the statement that reads its
 * owner in the same round trip (http/auth.ts): its id, scopes, and whether `last_used_at` is due a write.
 */
export const LIVE_API_TOKEN = {
  columns: `t.id AS token_id, t.scopes AS token_scopes,
    (t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute') AS token_stale`,
  from: 'api_tokens t',
  where: 't.token_hash = $1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())',
};

export const apiTokenHash = (token: string): string => sha256(token);

/** The scopes a token row holds, in the canonical order; unknown names dropped. */
export const apiTokenScopes = (scopes: string[]): TokenScope[] => asScopes(scopes);

/** `last_used_at` is written at most once a minute per token, so a busy CI script does not turn every read into a write. */
export async function markApiTokenUsed(db: Sql, id: string): Promise<void> {
  await db.query('UPDATE api_tokens SET last_used_at = now() WHERE id = $1', [id]);
}
