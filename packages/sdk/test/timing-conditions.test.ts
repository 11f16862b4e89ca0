import { describe, expect, it } from 'vitest';
import { timingConditions } from '../src/index.js';

describe('timingConditions', () => {
  it('says nothing without a load', () => {
    expect(timingConditions(undefined)).toBeUndefined();
    expect(timingConditions(null)).toBeUndefined();
  });

  it('a quiet run: the cores and the waits', () => {
    expect(
      timingConditions({
        outside_cores: 0.01,
        cores: 2,
        lock: true,
        lock_wait_ms: 0,
        noisy: false,
        timed_runs: 1,
        wait_share: 0.031,
        baseline_wait_share: 0.024,
        retaken_pairs: 0,
        waited_pairs_kept: 0,
      }),
    ).toBe('Timed on 2 cores with the machine otherwise quiet; waiting for a cpu 3% of its time, the baseline 2%.');
  });

  it('a core budget smaller than the machine: which cpus both sides had', () => {
    const load = {
      outside_cores: 0.98,
      cores: 2,
      lock: true,
      lock_wait_ms: 0,
      noisy: true,
      timed_runs: 1,
      budget_cores: 1,
      budget_cpus: '1',
    };
    expect(timingConditions(load)).toBe(
      'Timed on 1 of 2 cores (cpu 1, free when the evaluation began; the baseline on the same) beside other work (0.98 cores busy).',
    );
    expect(timingConditions({ ...load, budget_resets: 3 })).toBe(
      'Timed on 1 of 2 cores (cpu 1, free when the evaluation began; the baseline on the same) beside other work (0.98 cores busy); its threads found on cpus outside the budget 3 times (set back).',
    );
    expect(timingConditions({ ...load, timed_runs: 2, run_speedups: [8.8, 5.1], run_times: [6.6, 11.5] })).toBe(
      'Timed on 1 of 2 cores (cpu 1, free when the evaluation began; the baseline on the same) beside other work (0.98 cores busy); timed twice by fresh processes (8.80x and 5.10x: the lower is shown, the interval holds both).',
    );
    // Both timed under load: combined, and the wait before the second still said.
    expect(timingConditions({ ...load, timed_runs: 2, run_speedups: [0.9, 1.0], retime_wait_ms: 2100 })).toBe(
      'Timed on 1 of 2 cores (cpu 1, free when the evaluation began; the baseline on the same) beside other work (0.98 cores busy); timed twice by fresh processes, the second after waiting 2.1 s for the machine to quiet (0.90x and 1.00x: the lower is shown, the interval holds both).',
    );
    // Every core in the budget: said as before.
    expect(timingConditions({ ...load, outside_cores: 0, budget_cores: 2, budget_cpus: '0-1' })).toBe(
      'Timed on 2 cores with the machine otherwise quiet.',
    );
  });

  it('a neighbour: the outside load, the pairs taken again and kept, the second timing', () => {
    expect(
      timingConditions({
        outside_cores: 1.41,
        cores: 2,
        lock: true,
        lock_wait_ms: 0,
        noisy: true,
        timed_runs: 2,
        wait_share: 0.654,
        baseline_wait_share: 0.487,
        retaken_pairs: 129,
        waited_pairs_kept: 1,
        retime_wait_ms: 12_345,
      }),
    ).toBe(
      'Timed on 2 cores beside other work (1.41 cores busy); waiting for a cpu 65% of its time, the baseline 49%; 129 pairs taken again after waiting; 1 kept after waiting (the machine stayed busy); timed 2 times (the last after waiting 12.3 s for the machine to quiet).',
    );
    // Since 2026-11-27 no pair is dropped for waiting (issue 31): the waited pairs are counted and kept.
    expect(
      timingConditions({
        outside_cores: 1.41,
        cores: 2,
        lock: true,
        lock_wait_ms: 0,
        noisy: true,
        waited_pairs_kept: 7,
        retaken_pairs: 0,
      }),
    ).toMatch(/7 pairs waited for a cpu \(kept: no pair is dropped for waiting\)/);
  });
});
