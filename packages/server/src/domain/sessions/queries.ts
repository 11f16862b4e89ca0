// Reads of sessions, instructions and attempts shared by the services and the session loop.
import { NotFoundError } from '../../errors.js';
import {
  ATTEMPT_COLUMNS,
  type AttemptRow,
  INSTRUCTION_COLUMNS,
  type InstructionRow,
  SESSION_COLUMNS,
  type SessionRow,
} from '../../db/rows.js';
import type { Sql } from '../../db/sql.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A malformed id cannot name a row; answering 404 (not a database error) keeps ids opaque. */
export const isUuid = (id: string): boolean => UUID.test(id);

export async function findSession(sql: Sql, id: string, opts: { lock?: boolean } = {}): Promise<SessionRow | null> {
  if (!isUuid(id)) return null;
  const rows = await sql.query<SessionRow>(
    `SELECT ${SESSION_COLUMNS} FROM agent_sessions WHERE id = $1${opts.lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function findInstruction(sql: Sql, id: string): Promise<InstructionRow | null> {
  if (!isUuid(id)) return null;
  const rows = await sql.query<InstructionRow>(`SELECT ${INSTRUCTION_COLUMNS} FROM user_instructions WHERE id = $1`, [
    id,
  ]);
  return rows[0] ?? null;
}

export async function findAttempt(sql: Sql, id: string): Promise<AttemptRow | null> {
  if (!isUuid(id)) return null;
  const rows = await sql.query<AttemptRow>(`SELECT ${ATTEMPT_COLUMNS} FROM generation_attempts WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export function sessionAttempts(sql: Sql, sessionId: string): Promise<AttemptRow[]> {
  return sql.query<AttemptRow>(
    `SELECT ${ATTEMPT_COLUMNS} FROM generation_attempts WHERE session_id = $1 ORDER BY attempt_number`,
    [sessionId],
  );
}

export function sessionInstructions(sql: Sql, sessionId: string): Promise<InstructionRow[]> {
  return sql.query<InstructionRow>(
    `SELECT ${INSTRUCTION_COLUMNS} FROM user_instructions WHERE session_id = $1 ORDER BY created_at, id`,
    [sessionId],
  );
}

/** The caller's session, or the 404 that also answers for other people's sessions. */
export async function ownSession(
  sql: Sql,
  user: { id: string; is_superuser: boolean },
  id: string,
  opts: { lock?: boolean } = {},
): Promise<SessionRow> {
  const s = await findSession(sql, id, opts);
  if (!s || (s.owner_id !== user.id && !user.is_superuser)) throw new NotFoundError('Session not found');
  return s;
}

/** The caller's instruction (through its session's owner), or 404. */
export async function ownInstruction(
  sql: Sql,
  user: { id: string; is_superuser: boolean },
  id: string,
): Promise<{ instruction: InstructionRow; session: SessionRow }> {
  const instruction = await findInstruction(sql, id);
  const session = instruction ? await findSession(sql, instruction.session_id) : null;
  if (!instruction || !session || (session.owner_id !== user.id && !user.is_superuser)) {
    throw new NotFoundError('Instruction not found');
  }
  return { instruction, session };
}
