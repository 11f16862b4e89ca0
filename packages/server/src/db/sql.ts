// The SQL surface every module uses (the Database in db/client.ts is one), so code depends on two methods and not on a driver.
export interface Sql {
  /** Runs one statement with $1.. parameters and returns its rows. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs fn in one transaction; a throw rolls it back. Nested calls reuse the outer transaction. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
}

/** ISO string of a timestamp column (both drivers hand back Date objects). */
export function iso(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  return new Date(String(value)).toISOString();
}

export function isoOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : iso(value);
}
