import { describe, expect, it } from 'vitest';
import { fastP, fastPPoint } from '../src/index.js';

describe('fast_p', () => {
  const noise = { correct: true, speedup: 1.02, speedup_interval: [0.95, 1.4] as const };
  const clear = { correct: true, speedup: 2.5, speedup_interval: [2.3, 2.7] as const };
  const wrong = { correct: false, speedup: null };

  it('counts a problem for p only when its whole speedup interval lies above p', () => {
    // 1.02x (0.95x-1.40x) is correct but cannot be told from the baseline: not fast_1 (issue 35 item 5).
    expect(fastP([noise])).toMatchObject({ '0': 1, '0.5': 1, '1': 0, '2': 0 });
    expect(fastP([noise, clear, wrong])).toMatchObject({ '0': 2 / 3, '1': 1 / 3, '2': 1 / 3, '5': 0 });
  });

  it("keeps KernelBench's point rule beside it", () => {
    expect(fastPPoint([noise])).toMatchObject({ '0': 1, '1': 1, '1.5': 0 });
    expect(fastPPoint([noise, clear, wrong])).toMatchObject({ '1': 2 / 3, '2': 1 / 3 });
  });

  it('counts a result without an interval by its point', () => {
    expect(fastP([{ correct: true, speedup: 1.2 }])['1']).toBe(1);
  });
});
