// Users: lookups, creation and the wire form (which never carries the password hash).
import type { User } from '@kernelforge/sdk';
import { prepared, type Sql } from '../db/sql.js';
import { hashPassword } from './password.js';

export interface UserRecord {
  id: string;
  email: string;
  full_name: string | null;
  display_name: string | null;
  /** Words chosen at random once (migration 0007): the public name when there is no display or full name. */
  handle: string;
  hashed_password: string | null;
  is_superuser: boolean;
  is_active: boolean;
  created_at: Date;
  last_login_at: Date | null;
  /** Whether a ranked result's finish or flag for review is mailed to them (migration 0015; default on). */
  mail_results: boolean;
}

/** The signed-in user as routes see it: no hash, only whether there is one. */
export type AuthUser = Omit<UserRecord, 'hashed_password'> & { has_password?: boolean };

const COLUMN_NAMES = [
  'id',
  'email',
  'full_name',
  'display_name',
  'handle',
  'hashed_password',
  'is_superuser',
  'is_active',
  'created_at',
  'last_login_at',
  'mail_results',
] as const satisfies readonly (keyof UserRecord)[];
const COLUMNS = COLUMN_NAMES.join(', ');

/** The user's columns as `alias.column`, for a statement that reads a user among other tables (http/auth.ts). */
export const userColumns = (alias: string): string => COLUMN_NAMES.map((c) => `${alias}.${c}`).join(', ');

/** The user's part of a row read with userColumns (its other columns belong to the rest of the statement). */
export function userOfRow(row: Record<string, unknown>): UserRecord {
  return Object.fromEntries(COLUMN_NAMES.map((c) => [c, row[c]])) as unknown as UserRecord;
}

// Read on every authenticated request (a deactivated account's tokens stop working at once), so kept prepared.
const USER_BY_ID = prepared('user_by_id', `SELECT ${COLUMNS} FROM users WHERE id = $1`);

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export function toWireUser(u: AuthUser | UserRecord): User {
  const hasPassword = 'hashed_password' in u ? u.hashed_password !== null : u.has_password;
  return {
    id: u.id,
    email: u.email,
    full_name: u.full_name,
    display_name: u.display_name ?? null,
    ...(u.handle ? { handle: u.handle } : {}),
    created_at: new Date(u.created_at).toISOString(),
    is_superuser: u.is_superuser,
    is_active: u.is_active,
    mail_results: u.mail_results !== false,
    ...(hasPassword !== undefined ? { has_password: hasPassword } : {}),
  };
}

export function withoutHash(u: UserRecord): AuthUser {
  const { hashed_password, ...rest } = u;
  return { ...rest, has_password: hashed_password !== null && hashed_password !== undefined };
}

/** Ids are uuids; anything else cannot match and must not reach Postgres as a cast error. */
export const isUserId = (id: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

export async function findUserById(db: Sql, id: string): Promise<UserRecord | null> {
  if (!isUserId(id)) return null;
  const r = await db.query<UserRecord>(USER_BY_ID, [id]);
  return r[0] ?? null;
}

export async function findUserByEmail(db: Sql, email: string): Promise<UserRecord | null> {
  const r = await db.query<UserRecord>(`SELECT ${COLUMNS} FROM users WHERE email = $1`, [normalizeEmail(email)]);
  return r[0] ?? null;
}

export interface NewUser {
  email: string;
  password?: string | null;
  /** Already hashed (an email-verification token carries the hash, never the password). */
  hashedPassword?: string | null;
  fullName?: string | null;
  isSuperuser?: boolean;
}

/** Throws Postgres' unique violation (code 23505) when the address is taken. */
export async function createUser(db: Sql, u: NewUser): Promise<UserRecord> {
  const hashed = u.password ? await hashPassword(u.password) : (u.hashedPassword ?? null);
  const r = await db.query<UserRecord>(
    `INSERT INTO users (email, full_name, hashed_password, is_superuser) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
    [normalizeEmail(u.email), u.fullName ?? null, hashed, u.isSuperuser ?? false],
  );
  return r[0] as UserRecord;
}

/** Mail and Google sign-ins create the account on first use; a concurrent creation of the same address is tolerated. */
export async function findOrCreateUser(db: Sql, email: string, fullName: string | null = null): Promise<UserRecord> {
  const found = await findUserByEmail(db, email);
  if (found) return found;
  await db.query('INSERT INTO users (email, full_name) VALUES ($1, $2) ON CONFLICT (email) DO NOTHING', [
    normalizeEmail(email),
    fullName,
  ]);
  return (await findUserByEmail(db, email)) as UserRecord;
}

export async function markSignedIn(db: Sql, id: string): Promise<void> {
  await db.query('UPDATE users SET last_login_at = now() WHERE id = $1', [id]);
}

export async function listUsers(
  db: Sql,
  limit: number,
  offset: number,
  q?: string,
): Promise<{ rows: UserRecord[]; count: number }> {
  // `q` matches anywhere in the email, full name, display name or handle; LIKE's wildcards in it are literal.
  const pattern = q ? `%${q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : null;
  const where = `WHERE $1::text IS NULL OR lower(email) LIKE $1 OR lower(coalesce(full_name, '')) LIKE $1
    OR lower(coalesce(display_name, '')) LIKE $1 OR handle LIKE $1`;
  const rows = await db.query<UserRecord>(
    `SELECT ${COLUMNS} FROM users ${where} ORDER BY created_at, email LIMIT $2 OFFSET $3`,
    [pattern, limit, offset],
  );
  const count = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users ${where}`, [pattern]);
  return { rows, count: count[0]?.n ?? 0 };
}

/** A superuser's change to another account: superuser rights, active or not. Null when there is no such user. */
export async function updateUserFlags(
  db: Sql,
  id: string,
  flags: { is_superuser?: boolean | undefined; is_active?: boolean | undefined },
): Promise<UserRecord | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const r = await db.query<UserRecord>(
    `UPDATE users SET is_superuser = coalesce($2, is_superuser), is_active = coalesce($3, is_active), updated_at = now()
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, flags.is_superuser ?? null, flags.is_active ?? null],
  );
  return r[0] ?? null;
}

/** The signed-in user's own settings (PATCH /users/me): each one given is set, the others are left as they are. */
export async function updateOwnSettings(
  db: Sql,
  id: string,
  settings: { displayName?: string | null | undefined; mailResults?: boolean | undefined },
): Promise<UserRecord | null> {
  const r = await db.query<UserRecord>(
    `UPDATE users SET display_name = CASE WHEN $2 THEN $3 ELSE display_name END,
       mail_results = coalesce($4, mail_results), updated_at = now()
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, settings.displayName !== undefined, settings.displayName ?? null, settings.mailResults ?? null],
  );
  return r[0] ?? null;
}

/** Sets (or, with null, clears) the name a user is shown by to others. */
export async function setDisplayName(db: Sql, id: string, displayName: string | null): Promise<UserRecord | null> {
  const r = await db.query<UserRecord>(
    `UPDATE users SET display_name = $2, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, displayName],
  );
  return r[0] ?? null;
}
