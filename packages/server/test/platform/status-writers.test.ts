// Every lifecycle has one owner: the only file whose SQL writes each status column (an UPDATE that sets it, an INSERT
// that names it). A second writer would be a transition the owner's table does not know about.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

const OWNERS: Record<string, string> = {
  agent_sessions: 'domain/sessions/lifecycle.ts',
  generation_attempts: 'domain/attempts/lifecycle.ts',
  jobs: 'jobs/queue.ts',
  submissions: 'domain/submissions/lifecycle.ts',
  sweep_problems: 'domain/sweeps/lifecycle.ts',
  user_instructions: 'domain/sessions/instruction-chain.ts',
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The tables whose status column a file's SQL writes. */
function statusWrites(text: string): string[] {
  const tables: string[] = [];
  for (const m of text.matchAll(/UPDATE\s+(\w+)(?:\s+\w+)?\s+SET\s+([\s\S]*?)(?:\bWHERE\b|\bRETURNING\b|`)/gi)) {
    if (/(^|[\s,])status\s*=/i.test(m[2] as string)) tables.push(m[1] as string);
  }
  for (const m of text.matchAll(/INSERT\s+INTO\s+(\w+)\s*\(([^)]*)\)/gi)) {
    if (/\bstatus\b/i.test(m[2] as string)) tables.push(m[1] as string);
  }
  return tables;
}

test('the scanner sees both kinds of write', () => {
  expect(statusWrites("UPDATE jobs SET lease_token = NULL, status = 'queued' WHERE id = $1")).toEqual(['jobs']);
  expect(statusWrites('UPDATE jobs SET lease_expires_at = now() WHERE status = $1')).toEqual([]);
  expect(statusWrites('INSERT INTO submissions (user_id, status) VALUES ($1, $2)')).toEqual(['submissions']);
});

test('one writer per status column: sessions, attempts, jobs, submissions, sweep problems, instructions', () => {
  const writers: Record<string, Set<string>> = {};
  for (const file of sources(SRC)) {
    for (const table of statusWrites(readFileSync(file, 'utf8'))) {
      if (!(table in OWNERS)) continue;
      const set = writers[table] ?? new Set<string>();
      set.add(relative(SRC, file).split('\\').join('/'));
      writers[table] = set;
    }
  }
  for (const [table, owner] of Object.entries(OWNERS)) {
    expect([...(writers[table] ?? [])], `writers of ${table}.status`).toEqual([owner]);
  }
});

test('every status column of the schema has an owner above', () => {
  const migrations = fileURLToPath(new URL('../../migrations', import.meta.url));
  const tables = new Set<string>();
  for (const name of readdirSync(migrations).filter((n) => n.endsWith('.sql'))) {
    const sql = readFileSync(join(migrations, name), 'utf8');
    for (const m of sql.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?(\w+)\s*\(([\s\S]*?)\n\);/gi))
      if (/^\s*status\s/im.test(m[2] as string)) tables.add(m[1] as string);
    for (const m of sql.matchAll(/ALTER TABLE (\w+) ADD COLUMN (?:IF NOT EXISTS )?status\s/gi))
      tables.add(m[1] as string);
  }
  expect([...tables].sort()).toEqual(Object.keys(OWNERS).sort());
});

test('every transition table is used by its owner: each move is guarded by it', () => {
  const tables: string[] = [];
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/export const (\w+_TRANSITIONS)\b/g)) {
      tables.push(m[1] as string);
      const uses = text.split(m[1] as string).length - 1;
      expect(uses, `${m[1]} in ${relative(SRC, file)} is read besides its definition`).toBeGreaterThan(1);
    }
  }
  expect(tables.sort()).toEqual([
    'ATTEMPT_TRANSITIONS',
    'INSTRUCTION_TRANSITIONS',
    'JOB_TRANSITIONS',
    'SESSION_TRANSITIONS',
    'SUBMISSION_TRANSITIONS',
    'SWEEP_PROBLEM_TRANSITIONS',
  ]);
});

test("one writer of submissions.review_status: a reviewer's decision (services/reviews.ts; a decision may replace another, so no table)", () => {
  const writers = sources(SRC)
    .filter((f) => /UPDATE\s+submissions(?:\s+\w+)?\s+SET[^`]*?\breview_status\s*=/i.test(readFileSync(f, 'utf8')))
    .map((f) => relative(SRC, f).split('\\').join('/'));
  expect(writers).toEqual(['services/reviews.ts']);
});
