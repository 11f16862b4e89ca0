// Seeds for correctness and timing: fixed in benchmark mode, derived from the leaderboard's secret in ranked mode.
import { createHash, randomBytes } from 'node:crypto';

const BENCHMARK_SEEDS = [1n, 2n, 3n];

function seedFrom(secret: string, label: string): bigint {
  const h = createHash('sha256').update(secret).update('\0').update(label).digest();
  return h.readBigUInt64LE(0) & 0x7fffffffffffffffn;
}

/**
 * Ranked seeds come from the leaderboard's secret and the submission's id together: every submission gets
 * inputs of its own, which no earlier submission's results predict, and the secret never leaves the runner
 * (no report carries a ranked seed).
 */
export function seedsFor(
  mode: 'benchmark' | 'ranked',
  secret?: string,
  submissionId?: string,
): { seeds: bigint[]; benchSeed: bigint } {
  if (mode === 'benchmark')
    return { seeds: BENCHMARK_SEEDS, benchSeed: 1000n + BigInt(randomBytes(2).readUInt16LE(0)) };
  // Without a secret a ranked run still must not be predictable: fall back to fresh randomness.
  const s =
    secret === undefined
      ? randomBytes(16).toString('hex')
      : `${secret}\0${submissionId ?? randomBytes(8).toString('hex')}`;
  return { seeds: Array.from({ length: 6 }, (_, i) => seedFrom(s, `seed${i}`)), benchSeed: seedFrom(s, 'bench') };
}
