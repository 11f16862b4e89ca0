// The SQL surface every module uses (the Database in db/client.ts is one), so code depends on two methods and not on a driver.
export interface Sql {
  /** Runs one statement with $1.. parameters and returns its rows. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs fn in one transaction; a throw rolls it back. Nested calls reuse the outer transaction. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
}

/** ISO string of a timestamp column (both drivers hand back Date objects). */
const preparedNames = new Map<string, string>();

/**
 * Marks a statement run on most requests (the signed-in user, a session's row versions) to be kept prepared: on
 * Postgres each pooled connection parses and plans it once instead of on every call (planning was most of what the
 * session GET's version check cost Postgres). Returns `text` unchanged, to pass to `query` as usual. Only for
 * statements whose plan does not depend on the parameters' values (a lookup by key): a kept plan may be generic.
 */
export function prepared(name: string, text: string): string {
  const known = preparedNames.get(text);
  if (known !== undefined && known !== name) throw new Error(`statement already prepared as ${known}`);
  for (const [other, n] of preparedNames)
    if (n === name && other !== text) throw new Error(`two statements named ${name}`);
  preparedNames.set(text, name);
  return text;
}

/** The name `prepared` gave this statement, if any. */
export function preparedName(text: string): string | undefined {
  return preparedNames.get(text);
}

export function iso(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  return new Date(String(value)).toISOString();
}

export function isoOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : iso(value);
}
