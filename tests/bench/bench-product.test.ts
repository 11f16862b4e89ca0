// The bench scripts that start several servers, each evaluating kernels, run once each so they cannot rot (issue 19);
// the product lane, where a file may start servers and evaluate. Figures only: bench/README.md records them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bench, seedBenchServers } from './run-bench';

// The bench servers start on a copy of the migrated template, not an empty data folder (run-bench.ts).
let unseed = () => {};
beforeAll(async () => {
  unseed = await seedBenchServers();
}, 120_000);
afterAll(() => unseed());

describe('bench scripts that start several servers', () => {
  it('two-servers: two servers share the host-wide timing lock', () => {
    const r = bench('two-servers.mjs', ['1', '19_ReLU'], 280_000, { KFORGE_RUNNER_TIMING: 'quick' });
    expect(r.status, r.tail).toBe(0);
    expect(r.out).toMatch(/lone session \(server A\): best #1 [\d.]+ ms/);
    expect(r.out).toMatch(/concurrent session \(server B\): best #1 [\d.]+ ms = [\d.]+x the lone run; longest wait/);
  }, 300_000);

  it('tuner-best: a session beside a busy core, its top points re-timed side by side', () => {
    const r = bench('tuner-best.mjs', ['19_ReLU', '2', '1', '--top', '2', '--short'], 280_000);
    expect(r.status, r.tail).toBe(0);
    expect(r.out).toMatch(/session: 2 of 2 attempts timed/);
    expect(r.out).toMatch(/session's best #\d+; fastest side by side #\d+: /);
  }, 300_000);
});
