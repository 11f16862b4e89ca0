// The tuner on 19_ReLU and the matmul, fed real measurements (gcc -O3 -march=native -fopenmp, timed runs).
import { describe, expect, test } from 'vitest';
import { type AgentAttemptView, createAgent } from '../../src/agents/index.js';
import { evaluateWithGcc } from './helpers/gcc-eval.js';
import { PROBLEMS_DIR } from './helpers/problems.js';
import { keyOf, step, timeOf } from './helpers/session.js';

const tuner = createAgent({ provider: 'tuner' }, { problemsDir: PROBLEMS_DIR });
const RELU = '19_ReLU';
const MATMUL = '1_Square_matrix_multiplication_';
const SIZE: Record<string, number> = { [RELU]: 2_000_003, [MATMUL]: 384 };

/** Each step after the first moves from the best point measured before it (or is a sample when all its neighbours were tried). */
function expectClimbsFromBest(history: AgentAttemptView[]) {
  for (let i = 1; i < history.length; i++) {
    const before = history.slice(0, i).filter((h) => timeOf(h) !== null);
    const best = before.sort((a, b) => (timeOf(a) ?? 0) - (timeOf(b) ?? 0))[0];
    const meta = history[i]?.agent_meta;
    if (best) expect(meta?.from_key, `attempt ${i + 1} moves from the best point`).toBe(keyOf(best));
  }
}

describe.each([RELU, MATMUL])('the tuner on %s', (name) => {
  test('starts from the sensible point, climbs from the best measured point and never repeats one', async () => {
    const history: AgentAttemptView[] = [];
    for (let i = 0; i < 7; i++) await step(tuner, name, history, (s) => evaluateWithGcc(name, s, SIZE[name] ?? 1000));
    const keys = history.map(keyOf);
    expect(new Set(keys).size).toBe(keys.length);
    expect(history.every((h) => h.evaluation_state?.verdict === 'accepted')).toBe(true);
    expect(history[0]?.explanation).toMatch(/not an LLM/);
    expect(history[0]?.explanation).toMatch(/starting point/);
    expectClimbsFromBest(history);
    // Each later explanation says what changed (one parameter, or two where a move trades one against the other:
    // "NV 2→3, MR 12→8") and names the measured result it reacts to.
    for (const h of history.slice(1)) expect(h.explanation).toMatch(/Now: \w+ \S+→\S+(?:, \w+ \S+→\S+)?, because/);
    expect(history[1]?.explanation).toMatch(/Last: attempt 1 .* ran in [\d.]+ (ns|µs|ms|s)\b/);
    expect(history[0]?.agent_meta).toMatchObject({ agent: 'tuner', params: expect.any(Object), point_key: keys[0] });
  });

  test('a failed point is marked bad: the search goes back to the best point and does not return to it', async () => {
    const history: AgentAttemptView[] = [];
    await step(tuner, name, history, (s) => evaluateWithGcc(name, s, SIZE[name] ?? 1000));
    // The second candidate is broken on purpose so the compiler really rejects it.
    const bad = await step(tuner, name, history, (s) =>
      evaluateWithGcc(name, `${s}\n#error deliberately broken\n`, 10),
    );
    expect(bad.evaluation_state?.verdict).toBe('compile_error');
    for (let i = 0; i < 3; i++) await step(tuner, name, history, (s) => evaluateWithGcc(name, s, SIZE[name] ?? 1000));
    expect(history[2]?.explanation).toMatch(/failed \(compile_error\)/);
    const later = history.slice(2).map(keyOf);
    expect(later).not.toContain(keyOf(bad));
    expect(history[2]?.agent_meta?.from_key).toBe(keyOf(history[0] as AgentAttemptView));
  });
});

describe('instructions steer the tuner', () => {
  const measure = (name: string) => (s: string) => evaluateWithGcc(name, s, SIZE[name] ?? 1000, 3);

  test("'no OpenMP' turns OpenMP off in every later point", async () => {
    const history: AgentAttemptView[] = [];
    await step(tuner, MATMUL, history, measure(MATMUL));
    const instr = { instructions: ['no OpenMP'], currentInstruction: 'no OpenMP' };
    for (let i = 0; i < 3; i++) await step(tuner, MATMUL, history, measure(MATMUL), instr);
    for (const h of history.slice(1)) expect((h.agent_meta!.params as Record<string, unknown>).OMP).toBe(0);
    expect(history[1]?.explanation).toContain("Following 'no OpenMP': OMP held at 0");
    expect(history[1]?.source).not.toMatch(/#pragma omp parallel/);
  });

  test("'use 1 thread' pins the thread count", async () => {
    const history: AgentAttemptView[] = [];
    await step(tuner, RELU, history, measure(RELU), {
      instructions: ['use 1 thread'],
      currentInstruction: 'use 1 thread',
    });
    expect(history[0]?.agent_meta?.params).toMatchObject({ THREADS: 1, OMP: 1 });
    expect(history[0]?.source).toContain('num_threads(1)');
  });

  test("'bigger tiles' only tries larger tile parameters than the best point before it", async () => {
    const history: AgentAttemptView[] = [];
    for (let i = 0; i < 2; i++) await step(tuner, MATMUL, history, measure(MATMUL));
    const best = [...history].sort((a, b) => (timeOf(a) ?? 0) - (timeOf(b) ?? 0))[0]?.agent_meta?.params as Record<
      string,
      number
    >;
    const instr = { instructions: ['bigger tiles'], currentInstruction: 'bigger tiles' };
    for (let i = 0; i < 3; i++) await step(tuner, MATMUL, history, measure(MATMUL), instr);
    const tiles = ['MC', 'KC', 'MR', 'NV', 'NC'];
    const order = [32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 2048, 4096];
    for (const h of history.slice(2)) {
      const p = h.agent_meta?.params as Record<string, number>;
      expect(tiles.every((t) => (p[t] ?? 0) >= (best[t] ?? 0))).toBe(true);
      expect(tiles.some((t) => (p[t] ?? 0) > (best[t] ?? 0))).toBe(true);
      expect(h.explanation).toContain("Following 'bigger tiles'");
    }
    expect(order).toContain((history[2]!.agent_meta!.params as Record<string, number>).MC);
  });

  test('an instruction it cannot map is reported plainly, and the search goes on', async () => {
    const history: AgentAttemptView[] = [];
    const text = 'rewrite the inner loop in hand-written assembly';
    await step(tuner, RELU, history, measure(RELU), { instructions: [text], currentInstruction: text });
    expect(history[0]?.explanation).toContain(`Cannot follow '${text}'`);
    expect(history[0]?.explanation).toMatch(/can follow .*'bigger tiles'.*'no OpenMP'/);
    expect(history[0]?.explanation).toMatch(/LLM agent/);
    // 'bigger tiles' means nothing for ReLU's space (it has no tile parameter), so that is reported too.
    const h2: AgentAttemptView[] = [];
    await step(tuner, RELU, h2, measure(RELU), { instructions: ['bigger tiles'], currentInstruction: 'bigger tiles' });
    expect(h2[0]?.explanation).toContain("Cannot follow 'bigger tiles'");
  });

  test("'make it faster' is simply the tuner's job", async () => {
    const history: AgentAttemptView[] = [];
    await step(tuner, RELU, history, measure(RELU), {
      instructions: ['make it faster'],
      currentInstruction: 'make it faster',
    });
    expect(history[0]?.explanation).not.toContain('Cannot follow');
  });
});
