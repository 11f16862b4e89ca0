// Types of scripts/postgres.mjs, for the tests that start (and restart) a throwaway Postgres server of their own.
export interface ThrowawayPostgres {
  url: string;
  /** `pg_ctl stop -m fast`: every client's connection is ended, as in an operator's restart. */
  down(): void;
  /** Starts it again on the same port and data directory. */
  up(): void;
  /** Stops it for good and removes its files. */
  stop(): void;
}

export function startPostgres(): Promise<ThrowawayPostgres>;
