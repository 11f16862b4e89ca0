// Every lifecycle has one owner: the only file whose SQL writes each status column (an UPDATE that sets it, an INSERT
// that names it). A second writer would be a transition the owner's table does not know about.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

const OWNERS: Record<string, string> = {
  agent_sessions: 'sessions/session-lifecycle.ts',
  generation_attempts: 'sessions/attempts.ts',
  jobs: 'jobs/queue.ts',
  submissions: 'services/submission-lifecycle.ts',
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

test('one writer per status column: sessions, attempts, jobs, submissions', () => {
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
