// Torch facts (issue 37): the extra, untimed torch.profiler run of an accepted PyTorch candidate lists what one
// ModelNew call ran; it joins compile.facts and changes nothing else of the state (the driver's rule, tested on a
// stand-in backend and on real evaluations); a candidate that stalls or forges the profiled run gets a note, never
// another verdict. Triton's metadata reading is checked against a stand-in `triton` package (no Triton here).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildFacts, EvaluationState } from '@kernelforge/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { runBackend, timingRules, type Backend, type EvaluationJob } from '../src/evaluate/backend.js';
import { torchToolchain } from '../src/backends/torch/driver.js';
import { evaluate } from '../src/index.js';
import { profileAccepted, withFacts } from '../src/profile/attach.js';
import { parseTorchFacts, torchBuildFacts } from '../src/backends/torch/profile-facts.js';
import { pyDir } from '../src/backends/torch/py-package.js';
import { DEFAULT_RUNNER_SETTINGS } from '../src/settings.js';
import { catalogue, cpuDevice, repoRoot, workDir } from './helpers.js';
import { loadTorchProblems, torchFilesIn } from '../src/backends/torch/problems.js';

const hasTorch = torchToolchain().ok;

const ACCEPTED: EvaluationState = {
  mode: 'benchmark',
  evaluated_at: '2026-11-27T00:00:00.000Z',
  verdict: 'accepted',
  message: 'accepted',
  compile: null,
  correctness: { passed: true, cases: [] },
  environment: {
    device_id: 'cpu-x',
    device_name: 'x',
    compiler: 'python 3 + torch 1',
    compiler_version: '',
    flags: [],
    sandbox: 'bubblewrap',
    runner: 'here',
  },
  runner_seconds: 3,
  sizes_used: { n: 4 },
} as unknown as EvaluationState;

const FACTS: BuildFacts = torchBuildFacts(
  {
    device: 'cpu',
    torch_version: '1.13',
    kind: 'cpu_ops',
    call_ms: 0.5,
    ops: [{ name: 'aten::relu', calls: 1, self_ms: 0.1, total_ms: 0.2 }],
    ops_total: 1,
    triton: [],
    triton_reason: 'Triton is not installed here',
  },
  [],
);

/** The state less its compile report's facts: what the profiled run may not change. */
const judged = (s: EvaluationState) => {
  const { compile, ...rest } = s;
  if (!compile || compile.compiler === 'none (nothing to compile)') return { ...rest, compile: null };
  const { facts: _f, ...c } = compile;
  return { ...rest, compile: c };
};

describe('profiled facts never change a verdict or a figure', () => {
  it('withFacts adds compile.facts and nothing else', () => {
    const s = withFacts(ACCEPTED, FACTS);
    expect(s.compile?.facts).toEqual(FACTS);
    expect(judged(s)).toEqual(judged(ACCEPTED));
    const compiled = { ...ACCEPTED, compile: { ok: true, compiler: 'cc', flags: ['-O3'], log: 'x', duration_ms: 9 } };
    const t = withFacts(compiled, FACTS);
    expect({ ...t, compile: { ...t.compile, facts: undefined } }).toEqual({
      ...compiled,
      compile: { ...compiled.compile, facts: undefined },
    });
  });

  it('only an accepted state is profiled; a run that throws, gives nothing or overruns leaves it as judged', async () => {
    let ran = 0;
    const run = async () => {
      ran++;
      return FACTS;
    };
    const rejected = { ...ACCEPTED, verdict: 'incorrect' as const };
    expect(await profileAccepted(rejected, run)).toBe(rejected);
    expect(ran).toBe(0);
    expect(await profileAccepted(ACCEPTED, undefined)).toBe(ACCEPTED);
    expect(await profileAccepted(ACCEPTED, async () => Promise.reject(new Error('boom')))).toBe(ACCEPTED);
    expect(await profileAccepted(ACCEPTED, async () => null)).toBe(ACCEPTED);
    const t0 = performance.now();
    expect(await profileAccepted(ACCEPTED, () => new Promise(() => {}), 200)).toBe(ACCEPTED);
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect((await profileAccepted(ACCEPTED, run)).compile?.facts).toEqual(FACTS);
  });

  it('the driver runs a backend profile hook after judging, inside the job sandbox, and only joins its facts', async () => {
    const seen: string[] = [];
    const backend = (profile: Backend<null, null, null>['profile']): Backend<null, null, null> => ({
      prepare: async () => null,
      sandbox: () => ({ folders: ['box'], limits: { memoryBytes: 1 << 30, pids: 64, cpus: 1 } }),
      compile: async () => ({ report: null }),
      launch: async () => {
        seen.push('launch');
        return null;
      },
      timingFacts: () => null,
      parse: () => ({ ...ACCEPTED }),
      ...(profile ? { profile } : {}),
    });
    const job: EvaluationJob<null> = {
      payload: {} as never,
      problem: null,
      device: cpuDevice(),
      ranked: false,
      timing: timingRules('quick', false),
      base: { mode: 'benchmark', evaluated_at: ACCEPTED.evaluated_at },
      started: 0,
      elapsed: () => 0,
      workDir,
      settings: { ...DEFAULT_RUNNER_SETTINGS, jobCgroup: false },
      keepJobDir: false,
    };
    mkdirSync(workDir, { recursive: true });
    const without = await runBackend(backend(undefined), job);
    const withIt = await runBackend(
      backend(async (_j, sandbox, state) => {
        seen.push(`profile ${state.verdict} ${sandbox.path('box').endsWith('box')}`);
        return FACTS;
      }),
      job,
    );
    expect(seen).toEqual(['launch', 'launch', 'profile accepted true']);
    expect(withIt.compile?.facts).toEqual(FACTS);
    expect(judged(withIt)).toEqual(judged(without));
    const threw = await runBackend(
      backend(async () => {
        throw new Error('the profiled run failed');
      }),
      job,
    );
    expect(threw).toEqual(without);
  });
});

describe('the profiled run prints facts; the runner trusts only their shape', () => {
  it('takes the last marked line, refuses other shapes', () => {
    const good = JSON.stringify(FACTS.torch);
    expect(parseTorchFacts(`noise\nKF_TORCH_FACTS {"forged":1}\nKF_TORCH_FACTS ${good}\n`)).toEqual({
      facts: FACTS.torch,
    });
    expect(parseTorchFacts('nothing')).toEqual({ error: 'the profiled run printed no facts' });
    expect(parseTorchFacts('KF_TORCH_FACTS {oops')).toEqual({
      error: 'the profiled run printed facts that are not JSON',
    });
    const many = { ...FACTS.torch, ops: Array.from({ length: 41 }, () => FACTS.torch?.ops[0]) };
    expect('error' in parseTorchFacts(`KF_TORCH_FACTS ${JSON.stringify(many)}`)).toBe(true);
  });

  it("reads a Triton kernel's compiled metadata (a stand-in triton package: Triton 3.3+ and earlier caches)", () => {
    const fake = join(workDir, 'fake-triton');
    mkdirSync(join(fake, 'triton', 'runtime'), { recursive: true });
    writeFileSync(join(fake, 'triton', '__init__.py'), '__version__ = "3.6.0-standin"\n');
    writeFileSync(join(fake, 'triton', 'runtime', '__init__.py'), '');
    writeFileSync(
      join(fake, 'triton', 'runtime', 'jit.py'),
      `import collections
Meta = collections.namedtuple("Meta", "num_warps num_stages shared")
class Compiled:
    def __init__(self, w, s, sh, regs, spills):
        self.metadata = Meta(w, s, sh); self._r = regs; self._s = spills
    def _init_handles(self):
        self.n_regs = self._r; self.n_spills = self._s
class JITFunction:
    def __init__(self): self.device_caches = {}; self.cache = {}
class Autotuner:
    def __init__(self, fn): self.fn = fn; self.configs = [1, 2]; self.best_config = "BLOCK_SIZE: 1024, num_warps: 4"
`,
    );
    const probe = `
import sys, types
sys.path.insert(0, ${JSON.stringify(fake)})
sys.path.insert(0, ${JSON.stringify(pyDir())})
from kforge_torch import facts as p
from triton.runtime.jit import JITFunction, Compiled, Autotuner
m = types.ModuleType("candidate")
a = JITFunction(); a.device_caches[0] = ({"k1": Compiled(4, 3, 8192, 32, 0)}, "cuda", None, None)
b = JITFunction(); b.cache[0] = {"k": Compiled(8, 2, 0, 255, 16)}
m.relu_kernel = Autotuner(a); m.old_kernel = b; m.unused = JITFunction(); m.other = 3
import json; print(json.dumps(p.triton_facts(m)))
m2 = types.ModuleType("plain"); print(json.dumps(p.triton_facts(m2)))
`;
    const r = spawnSync('/usr/bin/python3', ['-I', '-c', probe], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const [withKernels, plain] = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(withKernels).toEqual([
      [
        {
          name: 'relu_kernel',
          compiled: true,
          num_warps: 4,
          num_stages: 3,
          shared_bytes: 8192,
          registers: 32,
          spills: 0,
          best_config: 'BLOCK_SIZE: 1024, num_warps: 4',
        },
        {
          name: 'old_kernel',
          compiled: true,
          num_warps: 8,
          num_stages: 2,
          shared_bytes: 0,
          registers: 255,
          spills: 16,
          best_config: null,
        },
        { name: 'unused', compiled: false },
      ],
      null,
    ]);
    expect(plain).toEqual([[], 'the candidate defines no Triton kernel (no @triton.jit function in its module)']);
  });
});

describe.skipIf(!hasTorch)('torch facts of real evaluations (cpu)', () => {
  const cacheDir = join(workDir, 'cache');
  let problems = catalogue;
  const load = async () => {
    if (problems.has('101_HardSigmoid')) return;
    const r = await loadTorchProblems(torchFilesIn(join(repoRoot, 'problems', 'pytorch'), 'builtin'), {
      taken: new Set(catalogue.keys()),
      cacheDir,
      budgets: { cpu: 16 << 20, cuda: 64 << 20 },
    });
    problems = new Map([...catalogue, ...r.problems.map((p) => [p.name, p] as const)]);
  };
  const run = (source: string, profileFacts = true) =>
    evaluate(
      {
        kind: 'attempt',
        target_id: 't1',
        mode: 'benchmark',
        problem_name: '101_HardSigmoid',
        device: cpuDevice().id,
        language: 'pytorch',
        source,
      },
      { problems, device: cpuDevice(), workDir, timing: 'quick', compiledBaseline: false, profileFacts },
    );
  const RELU = `import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.nn.functional.hardsigmoid(x)
`;
  afterEach(() => {
    delete process.env.KFORGE_TORCH_FACTS_TIMEOUT_S;
  });

  it('an accepted candidate lists the operators of one call; without the run, the same verdict', async () => {
    await load();
    const s = await run(RELU);
    expect(s.verdict, s.message).toBe('accepted');
    const t = s.compile?.facts?.torch;
    expect(t?.device).toBe('cpu');
    expect(t?.kind).toBe('cpu_ops');
    expect(t?.ops.map((o) => o.name)).toContain('aten::hardsigmoid');
    expect(t?.triton).toEqual([]);
    expect(t?.triton_reason).toMatch(/Triton is not installed here|no Triton kernel/);
    expect(s.compile?.facts?.counters.available).toBe(false);
    const off = await run(RELU, false);
    expect(off.verdict).toBe('accepted');
    expect(off.compile).toBeNull();
    // Each run's times are its own (noise); the verdict, the cases and what was measured are the same. How many
    // samples a run takes is noise too (the quick rules stop at 5 when their spread is small, later when a slow call
    // widens it), and the intervals are there only from 6 on: they are left out of the comparison.
    const measured = (r: typeof s) =>
      Object.keys(r.benchmarking_result ?? {})
        .filter((k) => !k.endsWith('_interval'))
        .sort();
    expect(measured(off)).toEqual(measured(s));
    expect(off.benchmarking_result?.cases.map((c) => c.name)).toEqual(s.benchmarking_result?.cases.map((c) => c.name));
    expect(off.sizes_used).toEqual(s.sizes_used);
  }, 300_000);

  it('a candidate that stalls or forges the profiled run keeps its verdict, with a note', async () => {
    await load();
    process.env.KFORGE_TORCH_FACTS_TIMEOUT_S = '8';
    const stall = `import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        if torch.autograd._profiler_enabled():
            while True:
                pass
        return torch.nn.functional.hardsigmoid(x)
`;
    const t0 = performance.now();
    const s = await run(stall);
    expect(s.verdict, s.message).toBe('accepted');
    expect(s.compile?.facts?.torch).toBeUndefined();
    // On a cpu the facts come from the candidate's own worker after its timed phase: the harness stops waiting at
    // the facts' limit and kills it; the verdict stands.
    expect(s.compile?.facts?.notes?.join(' ')).toMatch(/gathering its torch facts ran past its 8 s deadline/);
    expect(performance.now() - t0).toBeLessThan(120_000);
    const forge = `import sys
import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        if torch.autograd._profiler_enabled():
            print('KF_TORCH_FACTS {"device": "cuda", "ops": "all of them"}')
            sys.stdout.flush()
            import os
            os._exit(0)
        return torch.nn.functional.hardsigmoid(x)
`;
    const f = await run(forge);
    expect(f.verdict, f.message).toBe('accepted');
    expect(f.compile?.facts?.torch).toBeUndefined();
    // Its worker is gone before it answers: a note, and no line it printed is read as facts.
    expect(f.compile?.facts?.notes?.join(' ')).toMatch(/the worker died while gathering its torch facts/);
    // Facts of another shape from the worker's answer (its process may change anything the facts read) are refused.
    const reshape = forge.replace(/print\('KF_TORCH_FACTS[\s\S]*os\._exit\(0\)/, 'torch.__version__ = 12345');
    expect(reshape).toContain('torch.__version__ = 12345');
    const g = await run(reshape);
    expect(g.verdict, g.message).toBe('accepted');
    expect(g.compile?.facts?.torch).toBeUndefined();
    expect(g.compile?.facts?.notes?.join(' ')).toMatch(/facts of another shape/);
  }, 300_000);
});
