// The leaderboards' secret seeds: one per problem and device, created on first use; only ranked job payloads carry them.
import { randomBytes } from 'node:crypto';
import type { Sql } from './sql.js';

export async function leaderboardSeed(tx: Sql, problemName: string, device: string): Promise<string> {
  await tx.query(
    'INSERT INTO leaderboard_seeds (problem_name, device, seed) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    [problemName, device, randomBytes(16).toString('hex')],
  );
  const rows = await tx.query<{ seed: string }>(
    'SELECT seed FROM leaderboard_seeds WHERE problem_name = $1 AND device = $2',
    [problemName, device],
  );
  return (rows[0] as { seed: string }).seed;
}
