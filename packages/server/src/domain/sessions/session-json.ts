// The hot read path: GET a session as wire JSON assembled by Postgres in one query, without re-parsing stored JSON.
import { NotFoundError } from '../../errors.js';
import { prepared, type Sql } from '../../db/sql.js';
import type { Alongside } from '../../http/auth.js';
import { isUuid } from './queries.js';

// ISO 8601 UTC with milliseconds, as Date.toISOString writes it (to_char's MS truncates, like JS Dates do).
const iso = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// One attempt as rows.ts's toAttempt shapes it (the sdk's GenerationAttempt).
const ATTEMPT_JSON = `json_build_object(
  'id', a.id, 'session_id', a.session_id, 'instruction_id', a.instruction_id, 'attempt_number', a.attempt_number,
  'status', a.status, 'language', a.language, 'source', a.source, 'explanation', a.explanation, 'error', a.error,
  'evaluation_state', a.evaluation_state, 'token_usage', a.token_usage, 'runner_seconds', a.runner_seconds,
  'created_at', ${iso('a.created_at')}, 'finished_at', ${iso('a.finished_at')})`;

// Which row versions the body is made of: every INSERT or UPDATE gives a row a new xmin and a DELETE drops one, so
// equal strings mean the same rows as they were (commit order does not matter, unlike a max id or a timestamp).
// Reading xmin touches no TOASTed column, so checking it costs a fraction of rendering the body.
const VERSION = `s.xmin::text
  || '/' || coalesce((SELECT string_agg(a.xmin::text, ',' ORDER BY a.id) FROM generation_attempts a WHERE a.session_id = s.id), '')
  || '/' || coalesce((SELECT string_agg(i.xmin::text, ',' ORDER BY i.id) FROM user_instructions i WHERE i.session_id = s.id), '')`;

// Checked on every GET: kept prepared, since planning it cost Postgres more than running it.
const SESSION_VERSION = prepared(
  'session_version',
  `SELECT s.owner_id, ${VERSION} AS version FROM agent_sessions s WHERE s.id = $1`,
);

/**
 * The same check made in the statement that reads the caller's user (http/auth.ts Alongside): the GET then costs
 * one round trip to the database when the rendering is reused. Undefined for an id that is no uuid (a 404 later).
 */
export function sessionVersionAlongside(id: string): Alongside | undefined {
  if (!isUuid(id)) return undefined;
  return {
    name: 'session_version',
    sql: `SELECT s.owner_id AS session_owner_id, ${VERSION} AS session_version FROM agent_sessions s WHERE s.id = $2`,
    params: [id],
  };
}

/**
 * The version row a guard read with sessionVersionAlongside (`c.get('alongside')`), as sessionJson takes it: null for
 * no such session, undefined when the guard read none (sessionJson then reads it itself).
 */
export function sessionVersionOf(
  alongside: Record<string, unknown> | null | undefined,
): { owner_id: string; version: string } | null | undefined {
  if (!alongside) return alongside;
  return { owner_id: alongside.session_owner_id as string, version: alongside.session_version as string };
}

// The attempts are rendered once (a CTE referenced twice is materialised once) and the best is picked from them by
// the spec's rule (rows.ts bestAttempt): the completed one with the lowest optimized_time, no time counting as the
// largest, ties to the earlier; none completed: the first attempt. As the sdk's rankingTime, a verdict other than
// `accepted` carries no time.
const SESSION_JSON = `
WITH a AS (
  SELECT a.attempt_number, ${ATTEMPT_JSON} AS body, a.status = 'completed' AS completed,
    CASE WHEN a.status = 'completed' AND coalesce(a.evaluation_state->>'verdict', 'accepted') = 'accepted'
        AND (a.evaluation_state->'benchmarking_result'->>'optimized_time')::double precision > 0
      THEN (a.evaluation_state->'benchmarking_result'->>'optimized_time')::double precision END AS time
  FROM generation_attempts a WHERE a.session_id = $1)
SELECT s.owner_id, ${VERSION} AS version, json_build_object(
  'id', s.id, 'owner_id', s.owner_id, 'problem_name', s.problem_name, 'name', s.name, 'label', s.label,
  'device', s.device, 'status', s.status,
  'agent', json_build_object('provider', s.agent->>'provider', 'model', s.agent->>'model'),
  'custom', s.custom_problem IS NOT NULL,
  'created_at', ${iso('s.created_at')}, 'updated_at', ${iso('s.updated_at')}, 'deleted_at', ${iso('s.deleted_at')},
  'best_attempt', (SELECT body FROM a ORDER BY completed DESC, time ASC NULLS LAST, attempt_number LIMIT 1),
  'generation_attempts', coalesce((SELECT json_agg(body ORDER BY attempt_number) FROM a), '[]'::json),
  'user_instructions', coalesce((SELECT json_agg(json_build_object(
       'id', i.id, 'session_id', i.session_id, 'text', i.text, 'name', i.name, 'starred', i.starred,
       'status', i.status, 'max_attempts', i.max_attempts,
       'created_at', ${iso('i.created_at')}, 'deleted_at', ${iso('i.deleted_at')}) ORDER BY i.created_at, i.id)
     FROM user_instructions i WHERE i.session_id = s.id), '[]'::json)
)::text AS body
FROM agent_sessions s WHERE s.id = $1`;

type Bytes = Uint8Array<ArrayBuffer>;
const utf8 = new TextEncoder();

/**
 * Rendered bodies by session id, with the row versions they were made of; least recently used out first. Kept as
 * UTF-8 bytes: a string body is encoded again on every write to the socket.
 */
export class SessionJsonCache {
  private readonly entries = new Map<string, { version: string; body: Bytes }>();
  private bytes = 0;

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  get(id: string, version: string): Bytes | null {
    const hit = this.entries.get(id);
    if (!hit || hit.version !== version) return null;
    this.entries.delete(id);
    this.entries.set(id, hit);
    return hit.body;
  }

  set(id: string, version: string, body: Bytes): void {
    this.delete(id);
    if (body.length > this.maxBytes / 4) return;
    this.entries.set(id, { version, body });
    this.bytes += body.length;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  private delete(id: string): void {
    const old = this.entries.get(id);
    if (!old) return;
    this.bytes -= old.body.length;
    this.entries.delete(id);
  }
}

/**
 * The caller's session as the body of GET /agent-session/{id} (the sdk's AgentSession), or the 404 that also answers
 * for other people's sessions. Postgres renders it (stored JSON such as evaluation states goes to the socket as text,
 * never parsed and re-serialised here), and the rendering is reused while the session's rows are unchanged. UTF-8.
 * The same shape as domain/sessions/service.ts getSession, which test/product/session-read.test.ts holds it to.
 */
export async function sessionJson(
  sql: Sql,
  cache: SessionJsonCache,
  user: { id: string; is_superuser: boolean },
  id: string,
  /** The session's owner and row versions when the caller already read them (sessionVersionOf); null: none. */
  known?: { owner_id: string; version: string } | null,
): Promise<Bytes> {
  const notFound = () => new NotFoundError('Session not found');
  if (!isUuid(id)) throw notFound();
  const current =
    known !== undefined ? known : (await sql.query<{ owner_id: string; version: string }>(SESSION_VERSION, [id]))[0];
  if (!current || (current.owner_id !== user.id && !user.is_superuser)) throw notFound();
  const cached = cache.get(id, current.version);
  if (cached !== null) return cached;
  // Version and body come from one statement, so they describe the same snapshot.
  const [row] = await sql.query<{ owner_id: string; version: string; body: string }>(SESSION_JSON, [id]);
  if (!row) throw notFound();
  const body = utf8.encode(row.body);
  cache.set(id, row.version, body);
  return body;
}
