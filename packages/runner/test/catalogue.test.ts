import { describe, expect, it } from 'vitest';
import { customProblemDefinition, toPublicProblem } from '../src/index.js';
import { catalogue } from './helpers.js';

describe('the problem catalogue', () => {
  it('holds at least 12 valid problems with the DESIGN prototypes', () => {
    expect(catalogue.size).toBeGreaterThanOrEqual(12);
    expect(toPublicProblem(catalogue.get('19_ReLU')!).prototype).toBe(
      'void solution(const float* x, float* y, int64_t n)',
    );
    expect(toPublicProblem(catalogue.get('1_Square_matrix_multiplication_')!).prototype).toBe(
      'void solution(const float* A, const float* B, float* C, int64_t n)',
    );
    expect([...catalogue.values()].filter((p) => p.level === 2).length).toBeGreaterThanOrEqual(2);
  });

  it('never shows ranked sizes in the public view', () => {
    for (const def of catalogue.values()) {
      const pub = toPublicProblem(def);
      expect(JSON.stringify(pub)).not.toContain('"ranked"');
      expect(pub.reference_source).toBe(def.reference_c);
      expect(def.cases.ranked.length).toBeGreaterThan(0);
      const bench = JSON.stringify(def.cases.benchmark.map((c) => c.sizes));
      for (const r of def.cases.ranked) expect(bench).not.toContain(JSON.stringify(r.sizes));
    }
  });

  it('uses irregular test sizes (not all multiples of 16)', () => {
    for (const def of catalogue.values())
      for (const c of def.cases.test) expect(Object.values(c.sizes).every((v) => v % 16 === 0 && v > 0)).toBe(false);
  });

  it('turns a custom problem into a definition and rejects shapes that use unknown sizes', () => {
    const input = {
      signature: [
        { name: 'x', type: 'f32*' as const, role: 'in' as const, shape: ['n'] },
        { name: 'y', type: 'f32*' as const, role: 'out' as const, shape: ['n'] },
        { name: 'n', type: 'i64' as const, role: 'size' as const },
      ],
      reference_source:
        'void solution(const float* x, float* y, long n) { for (long i = 0; i < n; i++) y[i] = 2 * x[i]; }',
      language: 'c' as const,
      cases: { test: [{ name: 't', sizes: { n: 7 } }], benchmark: [{ name: 'b', sizes: { n: 1000 } }] },
    };
    const def = customProblemDefinition('double it', input);
    expect(def.custom).toBe(true);
    expect(toPublicProblem(def).custom).toBe(true);
    expect(() =>
      customProblemDefinition('bad', {
        ...input,
        signature: [{ ...input.signature[0]!, shape: ['m'] }, input.signature[1]!, input.signature[2]!],
      }),
    ).toThrow(/unknown size/);
  });
});
