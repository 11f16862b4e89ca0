// The wait before a re-timing under load (evaluate/quiet.ts): it goes on at the first quiet window, keeps to its
// bound while the machine stays busy, and an abort ends it at once. The machine's load is made here.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { waitForQuiet } from '../src/evaluate/quiet.js';

describe('waitForQuiet', () => {
  it('keeps to its bound while every core is kept busy', async () => {
    const burners = Array.from({ length: availableParallelism() }, () =>
      spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }),
    );
    try {
      await new Promise((r) => setTimeout(r, 200));
      const w = await waitForQuiet(1_500, undefined, 250);
      expect(w.quiet, JSON.stringify(w)).toBe(false);
      expect(w.waitedMs).toBeGreaterThanOrEqual(1_400);
      expect(w.waitedMs).toBeLessThan(5_000);
    } finally {
      for (const b of burners) b.kill('SIGKILL');
    }
  }, 20_000);

  it('an abort ends the wait at once, and a zero bound does not wait', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const t0 = performance.now();
    await waitForQuiet(30_000, ac.signal, 10_000);
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect((await waitForQuiet(0)).waitedMs).toBe(0);
  }, 20_000);
});
