// The tuner's first attempt, fitted to the machine the tests run on, compiles and beats the reference there,
// measured by the real runner (benchmark mode: the reference timed in the same evaluation).
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverDevices, evaluate, loadCatalogue, sandboxAvailable } from '@kernelforge/runner';
import type { Device, EvaluationState } from '@kernelforge/sdk';
import { beforeAll, describe, expect, test } from 'vitest';
import { createAgent } from '../../src/agents/index.js';
import { PROBLEMS_DIR } from './helpers/problems.js';
import { context } from './helpers/session.js';

const PROBLEMS = [
  '1_Square_matrix_multiplication_',
  '4_Matrix_vector_multiplication_',
  '23_Softmax',
  '54_conv_2D_3x3_valid',
];
/** Shared CI machines are noisy: a start point gets this many evaluations, and the best speedup counts. */
const TRIES = 3;

const workDir = join(tmpdir(), `kforge-tuner-start-${process.pid}`);
const catalogue = loadCatalogue(PROBLEMS_DIR);
const tuner = createAgent({ provider: 'tuner' }, { problemsDir: PROBLEMS_DIR });
let device: Device;

beforeAll(() => {
  mkdirSync(workDir, { recursive: true });
  const cpu = discoverDevices({ workDir }).find((d) => d.kind === 'cpu');
  if (!cpu) throw new Error('no cpu device');
  device = cpu;
});

describe.each(PROBLEMS)('%s', (name) => {
  test('the start point fitted to this machine compiles and is faster than the reference', async () => {
    const first = await tuner.generate({ ...context(name, []), device });
    expect(first.explanation).toMatch(/starting point/);
    const runs: EvaluationState[] = [];
    for (let i = 0; i < TRIES; i++) {
      const state = await evaluate(
        {
          kind: 'attempt',
          target_id: `start-${name}`,
          mode: 'benchmark',
          problem_name: name,
          device: device.id,
          language: 'c',
          source: first.source,
        },
        // The templates are ours, not untrusted code: without bubblewrap (a bare CI container) they run unsandboxed.
        // The quick rules (5 samples): the start points beat the reference by 1.5-5.5x on the 2-core Zen 4 VM, a
        // margin few samples show; the default rules' up to 10 s of timing per evaluation (under the timing lock,
        // the other lane's timings waiting) took 40-58 s for the four. Noise gets the other tries.
        { problems: catalogue, device, workDir, timing: 'quick', allowUnsandboxed: !sandboxAvailable() },
      );
      runs.push(state);
      // A wrong, broken or rejected kernel fails at once (an honest kernel is never called a cheat, however busy
      // the machine); a timeout, which a busy machine can cause, gets another try, like a slow run does.
      expect(['accepted', 'timeout'], `${state.verdict}: ${state.message}`).toContain(state.verdict);
      if (state.verdict === 'accepted' && (state.benchmarking_result?.speedup ?? 0) > 1) break;
    }
    const seen = runs.map((s) =>
      s.verdict === 'accepted' ? `${s.benchmarking_result?.speedup.toFixed(2)}x` : `${s.verdict} (${s.message})`,
    );
    // For the record (never asserted beyond > 1): the machine is shared and noisy.
    console.log(`${name}: ${seen.join(', ')}`);
    const speedups = runs.map((s) => (s.verdict === 'accepted' ? (s.benchmarking_result?.speedup ?? 0) : 0));
    const isa = device.cpu ? `${device.cpu.vector_isa}, ${device.cores} cores` : 'unknown ISA';
    expect(Math.max(...speedups), `over the reference on this machine (${isa}): ${seen.join(', ')}`).toBeGreaterThan(1);
  }, 600_000);
});
