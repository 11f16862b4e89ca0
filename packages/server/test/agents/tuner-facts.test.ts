// The tuner's choices where build facts decide them (issue 37): on cuda, a kernel that spills registers or runs at low
// theoretical occupancy rules out moving its tile parameter further that way (and, at the best point, larger tiles);
// on the cpu, a loop gcc did not vectorize makes the search try the space's vector parameter first. The same
// histories without facts choose otherwise, so the facts are what decided.
import type { BuildFacts, EvaluationState } from '@kernelforge/sdk';
import { describe, expect, test } from 'vitest';
import type { AgentAttemptView } from '../../src/agents/index.js';
import { factsRules, LOW_OCCUPANCY, missedLoop, pressureOf } from '../../src/agents/tuner/facts.js';
import { normalise, pointKey, startPoint, triedPoints } from '../../src/agents/tuner/points.js';
import { choosePoint } from '../../src/agents/tuner/search.js';
import { loadSpace, pickVariant, type Params, type Variant } from '../../src/agents/tuner/space.js';
import { steer } from '../../src/agents/tuner/steer.js';
import { PROBLEMS_DIR } from './helpers/problems.js';

const variantOf = (problem: string, backend: 'cpu' | 'cuda'): Variant => {
  const space = loadSpace(PROBLEMS_DIR, problem);
  const v = space && pickVariant(space, backend, 'avx2');
  if (!v) throw new Error(`${problem} has no ${backend} space`);
  return v;
};

const base = (v: Variant): BuildFacts => ({
  symbols: [],
  assembly: '',
  assembly_truncated: false,
  hot_loop: null,
  vectorization: null,
  counters: { available: false, reason: 'none here' },
  ...(v.backend === 'cuda'
    ? {
        cuda: {
          arch: 'sm_90',
          user_constant_bytes: null,
          assembly_kind: 'ptx' as const,
          limits_source: 'x',
          kernels: [],
        },
      }
    : {}),
});

const kernel = (o: { spills?: number; occupancy?: number }) => ({
  name: 'sgemm_blocktiled(float const*, float const*, float*, int)',
  mangled: '_Z16sgemm_blocktiledPKfS0_Pfi',
  registers: o.spills ? 255 : 128,
  stack_bytes: o.spills ?? 0,
  spill_store_bytes: o.spills ?? 0,
  spill_load_bytes: o.spills ?? 0,
  shared_bytes: 8192,
  constant_bytes: null,
  barriers: 1,
  max_threads: null,
  occupancy: [
    {
      block_size: 256,
      basis: 'launched with 256 threads per block in the source',
      blocks_per_sm: 1,
      warps_per_sm: Math.round((o.occupancy ?? 0.5) * 64),
      max_warps_per_sm: 64,
      occupancy: o.occupancy ?? 0.5,
      limiter: 'registers',
    },
  ],
});

/** An accepted tuner attempt at `params` (a move `change` from `from`), with `facts` or none. */
function attempt(
  v: Variant,
  n: number,
  params: Params,
  speedup: number,
  facts: BuildFacts | undefined,
  from?: { params: Params; change: { param: string; from: unknown; to: unknown } },
): AgentAttemptView {
  const state: EvaluationState = {
    mode: 'benchmark',
    verdict: 'accepted',
    message: 'accepted',
    compile: { ok: true, compiler: 'cc', flags: [], log: '', duration_ms: 0, ...(facts ? { facts } : {}) },
    correctness: { passed: true, cases: [] },
    benchmarking_result: {
      optimized_time: 3 / speedup,
      baseline_time: 3,
      speedup,
      gbps: 0,
      gflops: 0,
      fraction_of_peak: 0,
      cases: [],
      flagged_for_review: false,
      review_reasons: [],
    },
    runner_seconds: 1,
    evaluated_at: new Date().toISOString(),
  };
  return {
    attempt_number: n,
    status: 'completed',
    source: '',
    explanation: '',
    evaluation_state: state,
    agent_meta: {
      agent: 'tuner',
      variant: v.name,
      params,
      point_key: pointKey(v, params),
      ...(from ? { from_key: pointKey(v, from.params), change: from.change } : {}),
    },
  };
}

const choose = (v: Variant, history: AgentAttemptView[]) =>
  choosePoint(v, triedPoints(v, history), steer(v, [], null), { currentInstruction: null, seed: history.length + 1 });

describe('cuda: spills or low occupancy rule out a tile size', () => {
  const v = variantOf('1_Square_matrix_multiplication_', 'cuda');
  const start = startPoint(v);
  const bk16 = normalise(v, { ...start, BK: 16 });
  const history = (facts2: BuildFacts | undefined) => [
    attempt(v, 1, start, 1.5, base(v)),
    attempt(v, 2, bk16, 1.9, facts2, { params: start, change: { param: 'BK', from: 8, to: 16 } }),
  ];

  test('without facts the search continues the move that paid (BK 16 -> 32)', () => {
    const c = choose(v, history(undefined));
    expect(c?.moves).toEqual([{ param: 'BK', from: 16, to: 32 }]);
    expect(c?.reason).toMatch(/cut the time/);
  });

  for (const [what, k] of [
    ['spills', kernel({ spills: 1720 })],
    ['low occupancy', kernel({ occupancy: 0.125 })],
  ] as const)
    test(`${what} at BK=16 rule out BK=32 and larger tiles from that point`, () => {
      const facts = { ...base(v), cuda: { ...(base(v).cuda as NonNullable<BuildFacts['cuda']>), kernels: [k] } };
      expect(pressureOf(facts)).toMatch(what === 'spills' ? /spills registers \(1720 B stored/ : /occupancy of 13%/);
      const c = choose(v, history(facts));
      expect(c).not.toBeNull();
      const move = c?.moves[0];
      expect(move?.param === 'BK' && move.to === 32).toBe(false);
      // Every tile or block parameter it moves, it moves down: up is ruled out at a starved best point.
      const spec = v.params.find((p) => p.name === move?.param);
      if (spec?.tags.some((t) => t === 'tile' || t === 'block'))
        expect(spec.values.indexOf(move?.to as never)).toBeLessThan(spec.values.indexOf(move?.from as never));
      expect(c?.reason).toMatch(
        /; the build facts rule out \d+ moves: a larger BM is ruled out: at the best point \(attempt #2\) the kernel sgemm_blocktiled/,
      );
      const tried = triedPoints(v, history(facts));
      const bk = v.params.find((p) => p.name === 'BK') as Variant['params'][number];
      expect(factsRules(tried, tried[1]).ruledOut(bk, 32, 1)).toMatch(
        /^BK=32 is ruled out: at BK=16 \(attempt #2\) the kernel/,
      );
      expect(factsRules(tried, tried[1]).ruledOut(bk, 8, -1)).toBeNull();
    });

  test('a starved point elsewhere still rules out going past it the same way', () => {
    // #2 (BK 8 -> 16) spilled and is slower: the best stays #1, and BK=16 and beyond stay ruled out from there.
    const facts = {
      ...base(v),
      cuda: { ...(base(v).cuda as NonNullable<BuildFacts['cuda']>), kernels: [kernel({ spills: 64 })] },
    };
    const h = [
      attempt(v, 1, start, 1.5, base(v)),
      attempt(v, 2, bk16, 1.2, facts, { params: start, change: { param: 'BK', from: 8, to: 16 } }),
      attempt(v, 3, normalise(v, { ...start, BM: 64 }), 1.3, base(v), {
        params: start,
        change: { param: 'BM', from: 128, to: 64 },
      }),
    ];
    const c = choose(v, h);
    expect(c?.key).not.toBe(pointKey(v, normalise(v, { ...start, BK: 32 })));
    expect(LOW_OCCUPANCY).toBe(0.25);
  });
});

describe('cpu: a loop gcc did not vectorize puts the vector parameter first', () => {
  const v = variantOf('19_ReLU', 'cpu');
  const start = startPoint(v);
  // #2 moved to plain stores with SIMD off; it was faster, so it is the best point.
  const plain = normalise(v, { ...start, STORE: 'plain', SIMD: 0 });
  const history = (facts2: BuildFacts | undefined) => [
    attempt(v, 1, start, 1.1, base(v)),
    attempt(v, 2, plain, 1.3, facts2, { params: start, change: { param: 'STORE', from: 'nontemporal', to: 'plain' } }),
  ];
  const missed: BuildFacts = {
    ...base(v),
    vectorization: [
      { line: 12, column: 5, vectorized: false, widths: [], reasons: ['control flow in loop.'] },
      { line: 20, column: 3, vectorized: true, widths: [32], reasons: [] },
    ],
  };

  test('without facts the search follows its coordinate order', () => {
    const c = choose(v, history(undefined));
    expect(c?.moves[0]?.param).not.toBe('SIMD');
  });

  test('with a missed loop it turns SIMD on first, and says why', () => {
    expect(missedLoop(missed)).toBe('line 12 (control flow in loop)');
    const c = choose(v, history(missed));
    expect(c?.moves).toEqual([{ param: 'SIMD', from: 0, to: 1 }]);
    expect(c?.reason).toMatch(/gcc did not vectorize the loop at line 12 \(control flow in loop\) in attempt #2/);
  });

  test('every loop vectorized: no preference from the facts', () => {
    const all: BuildFacts = {
      ...base(v),
      vectorization: [{ line: 12, column: 5, vectorized: true, widths: [32], reasons: [] }],
    };
    expect(choose(v, history(all))?.moves).toEqual(choose(v, history(undefined))?.moves);
  });
});
