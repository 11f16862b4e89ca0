// The bench scripts that time no kernel (the API's per-request cost and memory, the CLI's start-up and round trip,
// the web's bundle and first render) run once each so they cannot rot (issue 19). Figures only: bench/README.md records them with the machine and date.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bench, seedBenchServers } from './run-bench';

// The bench servers start on a copy of the migrated template, not an empty data folder (run-bench.ts).
let unseed = () => {};
beforeAll(async () => {
  unseed = await seedBenchServers();
}, 120_000);
afterAll(() => unseed());

describe('bench scripts of the faces', () => {
  it('api: the session GET beside a bare route with the same body, and idle memory', () => {
    const r = bench(
      'api.mjs',
      ['--short', '--seconds', '1', '--rounds', '1', '--full-seconds', '1', '--settle', '1'],
      280_000,
    );
    expect(r.status, r.tail).toBe(0);
    expect(r.out).toMatch(/RATIO GET session \/ bare route sending the same 84 KB body: [\d.]+x/);
    expect(r.out).toMatch(/server idle on PGlite, bundled, first start .*RSS \d+ MB/);
    expect(r.out).toMatch(/runner idle .*RSS \d+ MB/);
  }, 300_000);

  it('cli: start-up and one leaderboard round trip', () => {
    const r = bench('cli.mjs', ['--runs', '3'], 200_000);
    expect(r.status, r.tail).toBe(0);
    expect(r.out).toMatch(/kforge --help start-up[\s\S]*ratio [\d.]+x {2}\(3 runs each\)/);
    expect(r.out).toMatch(/kforge leaderboard --json end to end[\s\S]*ratio [\d.]+x {2}\(3 runs each\)/);
  }, 240_000);

  it('web: the initial bundle and a session page first render', () => {
    const r = bench('web.mjs', [], 200_000);
    expect(r.status, r.tail).toBe(0);
    expect(r.out).toMatch(/initial JS \+ CSS as sent \(build-time brotli\): [\d.]+ KB/);
    expect(r.out).toMatch(/session page, 20 attempts, first render .*median \d+ ms/);
  }, 240_000);
});
