// @vitest-environment happy-dom
// The Profile card (issue 37): gcc's vectorization report as a table, the counters or why there are none, the hot
// loop named; another user's result says its build facts are the author's; a result without facts keeps the roofline.
import type { EvaluationState } from '@kernelforge/sdk';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EvaluationReport } from '../src/components/EvaluationReport';
import { fakeApi } from './helpers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const base: EvaluationState = {
  verdict: 'accepted',
  mode: 'benchmark',
  message: 'accepted',
  compile: { ok: true, compiler: 'cc (gcc 12)', flags: ['-O3'], log: '', duration_ms: 40 },
  correctness: null,
  runner_seconds: 1,
  evaluated_at: '2026-11-27T00:00:00Z',
};

const facts = {
  symbols: ['solution', 'solution._omp_fn.0'],
  assembly: '0000000000001170 <solution._omp_fn.0>:\n    1178:\tvmaxps %ymm1,%ymm0,%ymm0\n    118d:\tjne    1178 <x>',
  assembly_truncated: false,
  hot_loop: { start_line: 2, end_line: 3, function: 'solution._omp_fn.0', vector_bits: 256 },
  vectorization: [
    { line: 5, column: 43, vectorized: true, widths: [32, 16], reasons: [] },
    { line: 9, column: 3, vectorized: false, widths: [], reasons: ['control flow in loop.'] },
  ],
  counters: { available: false, reason: 'not available here, because this machine exposes no hardware PMU' },
};

describe('the Profile card', () => {
  it('shows the vectorization table, the hot loop and the counters reason, with the assembly', () => {
    fakeApi({ 'GET /api/v1/devices': { body: { data: [], count: 0 } } });
    render(
      <EvaluationReport
        state={{ ...base, compile: { ...(base.compile as NonNullable<EvaluationState['compile']>), facts } }}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Profile' })).toBeTruthy();
    const rows = screen.getByTestId('vectorization').querySelectorAll('tbody tr');
    expect([...rows].map((r) => r.textContent)).toEqual(['5yes256-bit, 128-bit—', '9no—control flow in loop.']);
    expect(screen.getByTestId('hot-loop').textContent).toBe(
      'Hot loop: assembly lines 2–3, in solution._omp_fn.0 (256-bit vectors)',
    );
    expect(screen.getByTestId('counters').textContent).toContain('no hardware PMU');
    expect(screen.getByText(/Assembly of solution, solution\._omp_fn\.0/)).toBeTruthy();
  });

  it("another user's compiled result says the build facts are the author's", () => {
    fakeApi({ 'GET /api/v1/devices': { body: { data: [], count: 0 } } });
    render(<EvaluationReport state={{ ...base, redacted: true }} />);
    expect(screen.getByTestId('profile').textContent).toContain('visible to the author only');
    expect(screen.queryByTestId('vectorization')).toBeNull();
  });

  it('a result without build facts (cuda, pytorch, before issue 37) has no Profile card', () => {
    fakeApi({ 'GET /api/v1/devices': { body: { data: [], count: 0 } } });
    render(<EvaluationReport state={base} />);
    expect(screen.queryByTestId('profile')).toBeNull();
  });
});
