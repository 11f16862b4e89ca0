// The narrow SQL surface the product code needs, so services depend on two methods and not on a driver.
export interface Sql {
  /** Runs one statement with $1.. parameters and returns its rows. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs fn in one transaction; a throw rolls it back. Nested calls reuse the outer transaction. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
}

/** True when a Postgres error is a unique violation (SQLSTATE 23505), as raised by both PGlite and pg. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

/** ISO string of a timestamp column (both drivers hand back Date objects). */
export function iso(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  return new Date(String(value)).toISOString();
}

export function isoOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : iso(value);
}

/** The minimal shape of the platform's Database (src/db/client.ts) this adapter needs. */
interface DatabaseLike {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  transaction<T>(
    fn: (tx: { query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[] }> }) => Promise<T>,
  ): Promise<T>;
}

/**
 * Wraps the platform's Database. Inside a transaction every query must go through the transaction handle
 * (on PGlite the transaction owns the only connection), so a nested `transaction` reuses the outer one.
 */
export function sqlFrom(database: DatabaseLike): Sql {
  const inTx = (tx: { query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[] }> }): Sql => {
    const self: Sql = {
      query: async <T>(text: string, params?: unknown[]) => (await tx.query<T>(text, params)).rows,
      transaction: (fn) => fn(self),
    };
    return self;
  };
  return {
    query: async <T>(text: string, params?: unknown[]) => (await database.query<T>(text, params)).rows,
    transaction: (fn) => database.transaction((tx) => fn(inTx(tx))),
  };
}
