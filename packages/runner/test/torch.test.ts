// The torch backend (issue 13): KernelBench-format problems load (sandboxed, cached inspection, scaled sizes,
// the name-collision rule), faithful candidates are accepted, wrong ones are not, and every cheat in
// test/torch-cheats/ gets its verdict. Assertions are on verdicts (and lower bounds on times), never on speed.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { EvaluationJobPayload, EvaluationState } from '@kernelforge/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { torchToolchain } from '../src/backends/torch/driver.js';
import { evaluate, type Catalogue, type EvaluateOptions, type ProblemDefinition } from '../src/index.js';
import { loadTorchProblems, torchFilesIn } from '../src/backends/torch/problems.js';
import { catalogue, cpuDevice, fixture, repoRoot, workDir } from './helpers.js';

const hasTorch = torchToolchain().ok;
// Small budgets keep the tests quick on a 2-core machine; the scaling logic is the same at 256 MiB.
const budgets = { cpu: 16 << 20, cuda: 64 << 20 };
const cacheDir = join(workDir, 'cache');

/** KernelBench-like files no one on the team wrote for this catalogue: a stand-in for an operator's folder. */
const operatorDir = join(workDir, 'operator-kernelbench');
const RELU = `import torch
import torch.nn as nn

class Model(nn.Module):
    """
    Simple model that performs a ReLU activation.
    """
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x)

batch_size = 16
dim = 16384

def get_inputs():
    x = torch.randn(batch_size, dim)
    return [x]

def get_init_inputs():
    return []  # No special initialization inputs needed
`;
const GEMM = `import torch
import torch.nn as nn

class Model(nn.Module):
    """
    Model that performs a matrix multiplication, multiplies by a factor and applies LeakyReLU.
    """
    def __init__(self, in_features, out_features, multiplier, negative_slope):
        super(Model, self).__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.multiplier = multiplier
        self.leaky_relu = nn.LeakyReLU(negative_slope)

    def forward(self, x):
        x = self.gemm(x)
        x = x * self.multiplier
        x = self.leaky_relu(x)
        return x

batch_size = 128
in_features = 1024
out_features = 512
multiplier = 2.0
negative_slope = 0.1

def get_inputs():
    return [torch.randn(batch_size, in_features)]

def get_init_inputs():
    return [in_features, out_features, multiplier, negative_slope]
`;
// Outputs all far under the default absolute tolerance (1e-4): zeros would pass unless it scales with them.
const TINY = `import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x):
        return torch.sum(x * 1e-7, dim=1)

batch_size = 64
dim = 4096

def get_inputs():
    return [torch.randn(batch_size, dim)]

def get_init_inputs():
    return []
`;
// It also breaks torch for the files after it in the inspector's process, as a half-done import of a torch module did
// on an H200 (PyTorch 2.11): level2/12_Gemm_Multiply_LeakyReLU.py, inspected after it, must load all the same.
const BROKEN = 'import torch\ntorch.randn = None\nraise RuntimeError("this file does not load")\n';
const NO_MODEL =
  'import torch\n\ndef get_inputs():\n    return [torch.randn(4)]\n\ndef get_init_inputs():\n    return []\n';

let problems: Catalogue = new Map();
let loadErrors: Array<{ file: string; error: string }> = [];
let port = 0;
const server = createServer((s) => s.end('hello\n'));
const secretDir = join(workDir, 'torch-fake-data-dir');

beforeAll(async () => {
  if (!hasTorch) return;
  mkdirSync(join(operatorDir, 'level1'), { recursive: true });
  mkdirSync(join(operatorDir, 'level2'), { recursive: true });
  writeFileSync(join(operatorDir, 'level1', '19_ReLU.py'), RELU);
  writeFileSync(join(operatorDir, 'level1', '98_Broken.py'), BROKEN);
  writeFileSync(join(operatorDir, 'level1', '96_Tiny_sum.py'), TINY);
  writeFileSync(join(operatorDir, 'level1', '99_No_model.py'), NO_MODEL);
  writeFileSync(join(operatorDir, 'level2', '12_Gemm_Multiply_LeakyReLU.py'), GEMM);
  const files = [
    ...torchFilesIn(join(repoRoot, 'problems', 'pytorch'), 'builtin'),
    ...torchFilesIn(operatorDir, 'operator'),
  ];
  const r = await loadTorchProblems(files, { taken: new Set(catalogue.keys()), cacheDir, budgets });
  problems = new Map<string, ProblemDefinition>([...catalogue, ...r.problems.map((p) => [p.name, p] as const)]);
  loadErrors = r.errors;
  mkdirSync(secretDir, { recursive: true });
  writeFileSync(join(secretDir, 'secret.key'), 'TOP-SECRET-KEY');
  writeFileSync(join(secretDir, 'kforge.db'), 'DATABASE-CONTENT');
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
  port = (server.address() as { port: number }).port;
}, 600_000);
afterAll(() => server.close());

function job(problem: string, source: string, extra: Partial<EvaluationJobPayload> = {}): EvaluationJobPayload {
  return {
    kind: 'attempt',
    target_id: 't1',
    mode: 'benchmark',
    problem_name: problem,
    device: cpuDevice().id,
    language: 'pytorch',
    source,
    ...extra,
  };
}

function runTorch(
  problem: string,
  source: string,
  extra: Partial<EvaluationJobPayload> = {},
  opts: Pick<EvaluateOptions, 'torchLimitFloors'> = {},
): Promise<EvaluationState> {
  return evaluate(job(problem, source, extra), {
    problems,
    device: cpuDevice(),
    workDir,
    timing: 'quick',
    compiledBaseline: false,
    // No extra profiled run of accepted candidates: its facts only join compile.facts, which no test here reads
    // (torch-facts.test covers them); each cost a Python and torch start-up more.
    profileFacts: false,
    ...opts,
  });
}

/** One evaluation of a cheat on 101_HardSigmoid, shared by the tests that read different things from the same
    run (each pays Python and torch's start-up once, not per test); run on first use, so any test runs alone too. */
const cheatRuns = new Map<string, Promise<EvaluationState>>();
function cheatRun(file: string): Promise<EvaluationState> {
  let run = cheatRuns.get(file);
  if (!run) {
    run = runTorch('101_HardSigmoid', cheat(file));
    cheatRuns.set(file, run);
  }
  return run;
}

const renamed = (problem: string) => {
  const def = problems.get(problem);
  if (!def?.torch) throw new Error(`no pytorch problem ${problem}`);
  return def.torch.source.replace(/\bModel\b/g, 'ModelNew');
};

const cheat = (file: string) =>
  `KF_PORT = ${port}\nKF_SECRET = ${JSON.stringify(join(secretDir, 'secret.key'))}\nKF_DATA_FILE = ${JSON.stringify(join(secretDir, 'kforge.db'))}\n${fixture(`./torch-cheats/${file}`)}`;

describe.skipIf(!hasTorch)('pytorch problems load', () => {
  it('the built-in files and an operator folder load; broken files are reported and do not stop the others', () => {
    const torchNames = [...problems.values()].filter((p) => p.kind === 'pytorch').map((p) => p.name);
    expect(torchNames.length).toBeGreaterThanOrEqual(16);
    for (const l of [1, 2, 3])
      expect([...problems.values()].some((p) => p.kind === 'pytorch' && p.level === l)).toBe(true);
    expect(loadErrors.map((e) => e.file.split('/').pop()).sort()).toEqual(['98_Broken.py', '99_No_model.py']);
    expect(loadErrors.find((e) => e.file.endsWith('98_Broken.py'))?.error).toMatch(/does not load/);
    expect(loadErrors.find((e) => e.file.endsWith('99_No_model.py'))?.error).toMatch(/defines no Model/);
  });

  it('the device reports its toolchains (python, torch, the C++ compiler)', () => {
    expect(cpuDevice().toolchains).toMatchObject({ python: expect.any(String), torch: expect.any(String) });
    expect(cpuDevice().unavailable).toBeUndefined();
  });

  it('a stem taken by a C-ABI problem is not shadowed: the file becomes <stem>__torch', () => {
    expect(problems.get('19_ReLU')?.kind ?? 'c').toBe('c');
    const relu = problems.get('19_ReLU__torch');
    expect(relu?.kind).toBe('pytorch');
    expect(relu?.description).toMatch(/belongs to another problem/);
    expect(relu?.torch?.info.origin).toBe('operator');
  });

  it('sizes are scaled to the budget, keeping the constants that must not change', () => {
    const hs = problems.get('101_HardSigmoid')?.torch?.info;
    expect(hs?.constants).toEqual({ batch_size: 4096, dim: 65536 });
    const cpu = hs?.sizes.cpu;
    expect(cpu?.fits).toBe(true);
    expect(cpu?.benchmark[0]?.bytes).toBeLessThanOrEqual(budgets.cpu);
    expect(cpu?.test[0]?.bytes).toBeLessThan(cpu?.benchmark[0]?.bytes ?? 0);
    const mean = problems.get('104_Mean_reduction_over_a_dimension')?.torch?.info;
    expect(mean?.sizes.cpu?.constants.reduce_dim).toBe(1);
    const gn = problems.get('203_Gemm_GroupNorm_Swish')?.torch?.info.sizes.cpu?.constants;
    expect(gn?.num_groups).toBe(32);
    expect((gn?.out_features ?? 1) % 32).toBe(0);
  });
});

describe.skipIf(!hasTorch)('faithful and wrong candidates', () => {
  const honest = ['101_HardSigmoid', '203_Gemm_GroupNorm_Swish', '19_ReLU__torch', '12_Gemm_Multiply_LeakyReLU'];
  for (const name of honest)
    it(`the reference renamed to ModelNew is accepted: ${name}`, async () => {
      const state = await runTorch(name, renamed(name));
      expect(state.verdict, state.message).toBe('accepted');
      expect(state.sizes_used).toEqual(problems.get(name)?.torch?.info.sizes.cpu?.constants);
      expect(state.environment?.toolchains?.torch).toBeTruthy();
      // Bandwidth from the least traffic a call needs (its tensors once); a module has no flop count.
      const result = state.benchmarking_result!;
      expect(result.gbps).toBeGreaterThan(0);
      expect(result.gflops).toBe(0);
      // The core budget both sides ran on (the cpus free when the evaluation began) is stated with the figures.
      expect(result.load?.budget_cores).toBeGreaterThanOrEqual(1);
      expect(result.load?.budget_cores).toBeLessThanOrEqual(result.load!.cores);
      if (name === '101_HardSigmoid') {
        const { batch_size, dim } = state.sizes_used as { batch_size: number; dim: number };
        const bytes = result.gbps * result.optimized_time * 1e6;
        expect(bytes / (2 * 4 * batch_size * dim)).toBeCloseTo(1, 2); // x in, y out, float32
      }
      // Figures for the record (never asserted: the machine is shared and noisy).
      console.log(`${name}: speedup over eager ${state.benchmarking_result?.speedup.toFixed(2)}x`);
    }, 300_000);

  it('a wrong candidate is incorrect', async () => {
    const state = await runTorch('101_HardSigmoid', fixture('./torch-candidates/wrong_scale.py'));
    expect(state.verdict, state.message).toBe('incorrect');
    expect(state.message).toMatch(/expected/);
  }, 300_000);

  it('a job carries its problem: a runner without the folder runs it from the payload', async () => {
    const def = problems.get('19_ReLU__torch') as ProblemDefinition;
    const sizes = def.torch?.info.sizes.cpu;
    const state = await evaluate(
      job('not_in_this_catalogue', renamed('19_ReLU__torch'), {
        torch_problem: {
          source: def.torch?.source ?? '',
          file_name: '19_ReLU.py',
          cases: {
            test: (sizes?.test ?? []).map((c) => ({ name: c.name, constants: c.constants })),
            benchmark: (sizes?.benchmark ?? []).map((c) => ({ name: c.name, constants: c.constants })),
          },
        },
      }),
      {
        problems: new Map(),
        device: cpuDevice(),
        workDir,
        timing: 'quick',
        compiledBaseline: false,
        profileFacts: false,
      },
    );
    expect(state.verdict, state.message).toBe('accepted');
  }, 300_000);

  it('C sources are refused on a pytorch problem, and pytorch sources on a C problem', async () => {
    const a = await runTorch('101_HardSigmoid', 'void solution(void) {}', { language: 'c' });
    expect(a.verdict).toBe('compile_error');
    const b = await evaluate(job('19_ReLU', renamed('19_ReLU__torch')), {
      problems,
      device: cpuDevice(),
      workDir,
      timing: 'quick',
    });
    expect(b.verdict).toBe('compile_error');
  }, 300_000);
});

describe.skipIf(!hasTorch)('cheats get their verdicts', () => {
  const cases: Array<[string, string[], RegExp?]> = [
    ['call_reference.py', ['incorrect', 'runtime_error']],
    ['read_expected.py', ['incorrect']],
    ['cache_by_identity.py', ['incorrect']],
    ['background_thread.py', ['rejected', 'incorrect']],
    ['monkeypatch.py', ['incorrect']],
    ['low_precision.py', ['incorrect'], /tolerance/],
    ['mutate_inputs.py', ['incorrect'], /input 0 was modified/],
  ];
  for (const [file, verdicts, message] of cases)
    it(`${file} -> ${verdicts.join(' or ')}`, async () => {
      const state = await cheatRun(file);
      expect(verdicts, state.message).toContain(state.verdict);
      if (message) expect(state.message).toMatch(message);
    }, 300_000);

  it('the core budget: the candidate runs on the cpus the result states; widening them is set back and flagged', async () => {
    // As cheats.test's widen_cores.c: a neighbour pinned to cpu 0 for the whole evaluation, so the budget (both
    // sides) leaves it out where another cpu is free when the evaluation begins.
    const cpus = availableParallelism();
    const burner =
      cpus > 1 ? spawn('taskset', ['-c', '0', 'sh', '-c', 'while :; do :; done'], { stdio: 'ignore' }) : null;
    try {
      if (burner) await new Promise((r) => setTimeout(r, 300));
      const state = await runTorch('101_HardSigmoid', cheat('widen_cores.py'));
      expect(state.verdict, state.message).toBe('accepted');
      const result = state.benchmarking_result!;
      const load = result.load!;
      expect(load.budget_cores, JSON.stringify(load)).toBeGreaterThanOrEqual(1);
      const seen = /cores seen: ([\d ]+)\n/
        .exec(state.stdout ?? '')?.[1]
        ?.trim()
        .split(' ')
        .map(Number);
      expect(seen, state.stdout).toBeDefined();
      expect(state.stdout).toContain('widen ALLOWED');
      if (load.budget_cores! < load.cores) {
        if (burner) expect(seen).not.toContain(0);
        expect(load.budget_resets, JSON.stringify(load)).toBeGreaterThanOrEqual(1);
        expect(result.flagged_for_review).toBe(true);
        expect(result.review_reasons.join(' ')).toMatch(/outside the core budget/);
      } else {
        expect(load.budget_resets ?? 0).toBe(0);
      }
    } finally {
      burner?.kill('SIGKILL');
    }
  }, 300_000);

  it('the reference is out of reach: not importable, not in the process, not on disk', async () => {
    const state = await cheatRun('call_reference.py');
    expect(state.stdout).toContain('found reference: False');
  }, 300_000);

  it('no other process is visible from the worker (its pid namespace holds only itself)', async () => {
    const state = await cheatRun('read_expected.py');
    expect(state.stdout).toContain('other processes: []');
  }, 300_000);

  it('caching by content never pays: every timed call gets fresh inputs (each miss costs 20 ms)', async () => {
    const state = await runTorch('101_HardSigmoid', cheat('cache_by_content.py'));
    expect(state.verdict, state.message).toBe('accepted');
    for (const c of state.benchmarking_result?.cases ?? []) expect(c.optimized.min_ms).toBeGreaterThan(19);
  }, 300_000);

  it('patched clocks in the candidate change nothing: the time is taken outside its process', async () => {
    const state = await runTorch('101_HardSigmoid', cheat('slow_clock_patch.py'));
    expect(state.verdict, state.message).toBe('accepted');
    for (const c of state.benchmarking_result?.cases ?? []) expect(c.optimized.min_ms).toBeGreaterThan(24);
  }, 300_000);

  it('the plan, the seeds and the harness files are out of reach', async () => {
    const state = await runTorch('101_HardSigmoid', cheat('read_plan.py'));
    expect(state.verdict, state.message).toBe('accepted');
    expect(state.stdout).toContain('FOUND');
    expect(state.stdout).not.toMatch(
      /bench_seed|"seeds"|plan\.json|plan\.py|harness\.py|kforge_torch\.harness|seccomp/,
    );
  }, 300_000);

  it('no network, no files outside the box, and the box is read-only', async () => {
    const state = await runTorch('101_HardSigmoid', cheat('network_files.py'));
    expect(state.verdict, state.message).toBe('accepted');
    expect(state.stdout).toContain('REPORT');
    expect(state.stdout).not.toMatch(/CONNECTED|READ |TOP-SECRET|DATABASE-CONTENT|WROTE-BOX/);
  }, 300_000);

  it('inputs cannot be predicted: no seed reaches the constructor, no timed input is a scaled earlier one', async () => {
    // predict_inputs.py regenerates inputs from torch.initial_seed() in its constructor (the ranked seed once
    // reached it) and answers inputs that are a scalar times an earlier one with a scaled cached output; every
    // call it cannot predict costs 20 ms more. Ranked, so the seeds are the secret ones.
    const state = await runTorch('106_Batched_matmul_rectangular', cheat('predict_inputs.py'), {
      mode: 'ranked',
      secret_seed: 'predict-secret',
      target_id: 'sub-predict',
    });
    expect(['accepted', 'rejected'], state.message).toContain(state.verdict);
    if (state.verdict === 'accepted')
      for (const c of state.benchmarking_result?.cases ?? []) expect(c.optimized.min_ms).toBeGreaterThan(19);
  }, 300_000);

  it("handing back the worker's own output view is refused (before brief R it left the poison there: incorrect)", async () => {
    const state = await runTorch('101_HardSigmoid', cheat('output_view_write.py'));
    expect(state.verdict, state.message).toBe('runtime_error');
    expect(state.message).toMatch(/lies in the harness's own output memory/);
  }, 300_000);

  it("writing the result straight into the worker's output view to skip its copy is refused; the same kernel into a buffer of its own is not", async () => {
    // Brief R (issue 31 follow-up): accepted before, correct on every call, the copy every baseline pays skipped
    // (ranked, quick rules, the loaded 2-core VM: 2.79x and 1.72x at 2.1-2.4 ms a call, where the honest twin read
    // 1.60x and 0.79x at 4.8-7.7 ms).
    const state = await runTorch('101_HardSigmoid', cheat('write_output_view.py'));
    expect(state.verdict, state.message).toBe('runtime_error');
    expect(state.message).toMatch(/lies in the harness's own output memory/);
    const twin = await runTorch('101_HardSigmoid', `KF_HONEST_TWIN = True\n${cheat('write_output_view.py')}`);
    expect(twin.verdict, twin.message).toBe('accepted');
  }, 300_000);

  it('zeros fail against a reference whose outputs are all under the absolute tolerance; an honest reordered sum passes', async () => {
    const zeros = await runTorch('96_Tiny_sum', cheat('zeros_small_reference.py'));
    expect(zeros.verdict, zeros.message).toBe('incorrect');
    const reordered = `import torch\nimport torch.nn as nn\n\nclass ModelNew(nn.Module):\n    def __init__(self):\n        super().__init__()\n\n    def forward(self, x):\n        return (x.flip(1) * 1e-7).reshape(x.shape[0], 64, -1).sum(2).sum(1)\n`;
    const honest = await runTorch('96_Tiny_sum', reordered);
    expect(honest.verdict, honest.message).toBe('accepted');
  }, 300_000);

  it('a ranked incorrect result carries no seed, in its message or its rows', async () => {
    const state = await runTorch('101_HardSigmoid', fixture('./torch-candidates/wrong_scale.py'), {
      mode: 'ranked',
      secret_seed: 'seed-secret',
      target_id: 'sub-seed',
    });
    expect(state.verdict, state.message).toBe('incorrect');
    expect(state.message).not.toMatch(/seed/i);
    for (const c of state.correctness?.cases ?? []) expect(c).not.toHaveProperty('seed');
  }, 300_000);

  it('after the cheats the backend is healthy', async () => {
    const state = await runTorch('101_HardSigmoid', renamed('101_HardSigmoid'));
    expect(state.verdict, state.message).toBe('accepted');
  }, 300_000);
});

// Issue 31: an attacker was accepted at 2.41x on 101_HardSigmoid by patching the worker's Case.run and send (at
// import, through names built at run time) to do 40% of the work in the call and the rest in a thread started once
// the reply was read. Each cheat below was accepted before the fix (test/torch-cheats/*.py say how); the harness now
// reads the worker PROCESS's cpu from outside (ended threads included) and bounds the candidate's time.
describe.skipIf(!hasTorch)('work after return and time limits (issue 31)', () => {
  const afterReturn: Array<[string, string]> = [
    ['patched_reply.py', "the worker's case runner and reply path patched (its frame's locals rewritten)"],
    ['thread_after_reply.py', 'a thread started after the reply finishes the work and stays'],
    ['thread_exits_early.py', 'a thread started after the reply finishes the work and ends before the harness looks'],
  ];
  for (const [file, what] of afterReturn)
    it(`${file} (${what}) -> rejected`, async () => {
      let state = await runTorch('101_HardSigmoid', cheat(file));
      // On a loaded machine the cheat's late work can lose its race with the comparison: an honest `incorrect`
      // (the cheat is not accepted either), but not the path under test, so it is run again, at most twice.
      for (let i = 0; i < 2 && state.verdict === 'incorrect'; i++)
        state = await runTorch('101_HardSigmoid', cheat(file));
      expect(state.verdict, state.message).toBe('rejected');
      expect(state.message).toMatch(/work (went on|still running)( [\d.]+ m?s)? after forward\(\) returned/);
      if (file === 'patched_reply.py') expect(state.stdout).toMatch(/patched: (frame|globals)/);
    }, 300_000);

  it('a thread left spinning after the reply is rejected, and the verdict names the threads that were not quiet', async () => {
    // What the H200 run could not say (the reference of 101 rejected on cuda): which thread, spinning or asleep in the
    // kernel, and how much cpu it used meanwhile.
    const spinning = `import threading

import torch
import torch.nn as nn
import torch.nn.functional as F


def spin():
    while True:
        pass


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.started = False

    def forward(self, x):
        # Not in the warm-up calls (zero inputs): in the first call the harness judges.
        if not self.started and bool(x.reshape(-1)[:64].any()):
            self.started = True
            threading.Thread(target=spin, daemon=True).start()
        return F.hardsigmoid(x)
`;
    const state = await runTorch('101_HardSigmoid', spinning);
    expect(state.verdict, state.message).toBe('rejected');
    expect(state.message).toMatch(
      /work still running 1 s after forward\(\) returned \(threads not quiet: [^;]*\(R[,)][^;]*; cpu since the reply: [\d.]+ ms\)/,
    );
  }, 300_000);

  it('honest threads of its own (a pool kept between calls, work waited for in the call) are not work after return', async () => {
    // Threads started and joined in every call would not do: a thread's exit (and the OpenMP team torch gives it)
    // runs after join() returns, i.e. after the reply, and is counted as work after return.
    const threaded = `from concurrent.futures import ThreadPoolExecutor

import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = ThreadPoolExecutor(max_workers=2)

    def forward(self, x):
        y = torch.empty_like(x)
        half = x.shape[0] // 2

        def part(lo, hi):
            y[lo:hi] = F.hardsigmoid(x[lo:hi])

        for f in [self.pool.submit(part, 0, half), self.pool.submit(part, half, x.shape[0])]:
            f.result()
        return y
`;
    const state = await runTorch('101_HardSigmoid', threaded);
    expect(state.verdict, state.message).toBe('accepted');
    // Flagged for review by the static scan (threads), never rejected by it.
    expect(state.benchmarking_result?.review_reasons.join(' ')).toMatch(/thread or process is started/);
  }, 300_000);

  // The three tests that wait out a limit (a call's, the start-up's, the evaluation's) run side by side: each waits on
  // its own clock and none needs the machine to itself; one after another they were ~38 s of mostly sleeping.
  it.concurrent('a forward() that sleeps ends at its per-call limit, not after minutes', async () => {
    // 2 s a call (over the 1 s per-call limit, under the quick plan's 5 s call timeout, and its build's two warm-up
    // calls under the 10 s build limit): before the fix every call ran to its end, dozens of them.
    const t0 = Date.now();
    const state = await runTorch(
      '101_HardSigmoid',
      `KF_SLEEP_S = 2.0\n${fixture('./torch-cheats/sleeping_forward.py')}`,
    );
    expect(state.verdict, state.message).toBe('timeout');
    expect(state.message).toMatch(/forward\(\) ran past its 1 s limit on case test\d \(the larger of 1 s and 50x/);
    expect(Date.now() - t0).toBeLessThan(120_000);
  }, 300_000);

  it.concurrent('a file that sleeps at import ends at its start-up limit, not the 120 s start timeout (brief R)', async () => {
    // Before: accepted after holding the runner for the whole sleep (seen: 127 s, accepted), once per timed run.
    const t0 = Date.now();
    // The start-up floor lowered from 20 s to 5 s (the same rule; its 20 s were the longest wait of this file).
    const state = await runTorch(
      '101_HardSigmoid',
      `KF_IMPORT_SLEEP_S = 100.0\n${cheat('sleep_at_import.py')}`,
      {},
      { torchLimitFloors: { import_floor_s: 5 } },
    );
    expect(state.verdict, state.message).toBe('timeout');
    expect(state.message).toMatch(/importing the file ran past its [\d.]+ s limit \(the larger of 5 s and 2x/);
    // What the worker was doing when it was ended (a baseline silent for 120 s on an H200 said nothing more): its
    // threads, all asleep here, and its cpu so far.
    expect(state.message).toMatch(/\(\d+ threads \(\d+ S\), [\d.]+ s of cpu/);
    expect(Date.now() - t0).toBeLessThan(90_000);
  }, 300_000);

  it.concurrent('a forward() that sleeps under the per-call limit ends at the evaluation limit', async () => {
    // The evaluation's floor lowered from 20 s to 6 s (the same rule, reached after about 10 calls, not 33).
    const state = await runTorch(
      '101_HardSigmoid',
      `KF_SLEEP_S = 0.6\n${fixture('./torch-cheats/sleeping_forward.py')}`,
      {},
      { torchLimitFloors: { total_floor_s: 6 } },
    );
    expect(state.verdict, state.message).toBe('timeout');
    expect(state.message).toMatch(/ran past the evaluation's limit of 6(\.\d)? s in all \(the larger of 6 s and 50x/);
  }, 300_000);
});
