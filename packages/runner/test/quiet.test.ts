// The wait before a re-timing under load (evaluate/quiet.ts): it goes on at the first quiet window, keeps to its
// bound while the machine stays busy, and an abort ends it at once. The machine's load is made here.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { EvaluationProgress } from '@kernelforge/sdk';
import { quietThreshold, waitForQuiet } from '../src/evaluate/quiet.js';
import { WaitReports } from '../src/evaluate/waits.js';

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

  it('is reported as it goes: since when, the busy cores of each window, the threshold and the bound', async () => {
    const burners = Array.from({ length: availableParallelism() }, () =>
      spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }),
    );
    const seen: EvaluationProgress[] = [];
    const reports = new WaitReports((p) => seen.push(p), { deviceId: 'cpu-quiet-test', ranked: true, timingMs: 1000 });
    try {
      await new Promise((r) => setTimeout(r, 200));
      const started = Date.now();
      // The first timing saw 1.7 busy cores: said at once, before any window of the wait has ended.
      const w = await waitForQuiet(1_500, undefined, 250, reports.quietWait(1_500, 1.7));
      expect(w.quiet, JSON.stringify(w)).toBe(false);
      const cores = availableParallelism();
      expect(seen[0]).toEqual({
        stage: 'quiet',
        case_index: 0,
        case_count: 0,
        samples: 0,
        wait: {
          since: seen[0]?.wait?.since,
          max_seconds: 1.5,
          busy_cores: 1.7,
          cores,
          quiet_below: Math.round(quietThreshold(cores) * 100) / 100,
        },
      });
      expect(Date.parse(seen[0]?.wait?.since ?? '')).toBeGreaterThanOrEqual(started - 1000);
      // Then each window's busy cores, every one at or above the threshold (it never quieted), the same start.
      expect(seen.length, JSON.stringify(seen)).toBeGreaterThan(1);
      for (const p of seen.slice(1)) {
        expect(p.wait?.since).toBe(seen[0]?.wait?.since);
        expect(p.wait?.busy_cores ?? -1).toBeGreaterThanOrEqual(p.wait?.quiet_below ?? Number.POSITIVE_INFINITY);
      }
    } finally {
      reports.stop();
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
