// The torch backend's cuda path without a GPU (issue 33): the staged protocol (inputs copied to the device's own
// tensors, a timed run less the no-op round trip, outputs fetched back) runs on the cpu with the same harness and
// worker code the cuda device uses, and a cuda device is refused with its reason where this runner's PyTorch has no
// CUDA. Assertions are on verdicts, never on speed.
import type { Device, EvaluationJobPayload, EvaluationState } from '@kernelforge/sdk';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sandboxPath, torchCudaUnavailable, torchToolchain } from '../src/backends/torch/driver.js';
import { binDirsOf, outsideRoots } from '../src/backends/torch/toolchain.js';
import { sandboxArgv, sandboxAvailable } from '../src/sandbox/bwrap.js';
import { runCommand } from '../src/sandbox/spawn.js';
import { pythonReviewReasons } from '../src/backends/torch/python-scan.js';
import { QUICK_TIMING } from '../src/harness/plan.js';
import { evaluate, type Catalogue, type ProblemDefinition, type TimingRules } from '../src/index.js';
import { loadTorchProblems, torchFilesIn } from '../src/backends/torch/problems.js';
import { catalogue, cpuDevice, fixture, repoRoot, workDir } from './helpers.js';

const tc = torchToolchain();
const hasTorch = tc.ok;
let problems: Catalogue = new Map();

beforeAll(async () => {
  if (!hasTorch) return;
  const files = torchFilesIn(join(repoRoot, 'problems', 'pytorch'), 'builtin').filter((f) =>
    f.path.endsWith('101_HardSigmoid.py'),
  );
  const r = await loadTorchProblems(files, {
    taken: new Set(catalogue.keys()),
    cacheDir: join(workDir, 'cache'),
    budgets: { cpu: 16 << 20, cuda: 64 << 20 },
  });
  problems = new Map<string, ProblemDefinition>([...catalogue, ...r.problems.map((p) => [p.name, p] as const)]);
}, 600_000);

function job(problem: string, source: string, device: Device): EvaluationJobPayload {
  return {
    kind: 'attempt',
    target_id: 't1',
    mode: 'benchmark',
    problem_name: problem,
    device: device.id,
    language: 'pytorch',
    source,
  };
}

function staged(
  problem: string,
  source: string,
  device: Device = cpuDevice(),
  timing: 'quick' | TimingRules = 'quick',
): Promise<EvaluationState> {
  return evaluate(job(problem, source, device), {
    problems,
    device,
    workDir,
    timing,
    compiledBaseline: false,
    torchStaged: true,
    // No extra profiled run of accepted candidates: no test here reads their facts (torch-facts.test does), and
    // each cost a sandboxed Python and torch start-up more (2.4-4 s, 1-3 cpu-s on a busy 2-core VM).
    profileFacts: false,
  });
}

const renamed = (problem: string) => {
  const def = problems.get(problem);
  if (!def?.torch) throw new Error(`no pytorch problem ${problem}`);
  return def.torch.source.replace(/\bModel\b/g, 'ModelNew');
};

describe('which PyTorch can run on a cuda device', () => {
  it('a CUDA build of PyTorch 2.x can; a cpu build, a 1.x or none cannot, and each says why', () => {
    expect(torchCudaUnavailable({ torch: '2.11.0+cu130', cuda: '13.0' })).toBeNull();
    expect(torchCudaUnavailable({ torch: '1.13.0' })).toMatch(/built without CUDA/);
    expect(torchCudaUnavailable({ torch: '1.13.1+cu117', cuda: '11.7' })).toMatch(/too old/);
    expect(torchCudaUnavailable({})).toMatch(/no PyTorch/);
  });
});

describe("the interpreter's folders outside /usr (a GPU machine's virtual environment)", () => {
  it('are mounted read-only in every torch sandbox: the outermost of each, none under /usr or /tmp', () => {
    expect(
      outsideRoots([
        '3.12.3',
        'root:/usr/lib/python3/dist-packages',
        'root:/opt/venv',
        'root:/opt/venv/lib/python3.12/site-packages',
        'root:/root/.local/lib/python3.12/site-packages',
        'root:/tmp/x',
        'root:/',
      ]),
    ).toEqual(['/opt/venv', '/root/.local/lib/python3.12/site-packages']);
    expect(outsideRoots(['root:/usr', 'root:/usr/local/lib/python3.12/dist-packages'])).toEqual([]);
  });
});

describe("load_inline's ninja where PyTorch lives in a virtual environment", () => {
  it('ninja folders beyond /usr/bin and /bin go on PATH', () => {
    expect(binDirsOf(['root:/opt/venv', 'bin:/opt/venv/bin', 'bin:/usr/bin', 'bin:/bin', 'bin:/opt/venv/bin'])).toEqual(
      ['/opt/venv/bin'],
    );
    expect(
      sandboxPath({ toolchain: { ok: true, versions: {}, binDirs: ['/opt/venv/bin'] } }, ['/usr/local/cuda/bin']),
    ).toBe('/usr/local/cuda/bin:/opt/venv/bin:/usr/bin:/bin');
    expect(sandboxPath({ toolchain: { ok: true, versions: {} } })).toBe('/usr/bin:/bin');
  });

  // The GPU machines' PyTorch is a venv's (/opt/torch/.venv) with pip's ninja in its bin folder only: on an H200 the
  // tuner's load_inline answer for 201 ended "compile_error: Ninja is required to load C++ extensions" in the sandbox,
  // while the same file built outside it. A venv here (system packages: Debian's torch) with a ninja of its own.
  it.skipIf(!hasTorch || !sandboxAvailable())(
    "the venv's own ninja is found and is what torch runs inside the sandbox",
    async () => {
      const venv = mkdtempSync('/var/tmp/kf-venv-');
      chmodSync(venv, 0o755);
      try {
        // A virtual environment as `python3 -m venv --system-site-packages` makes one, by hand (Debian ships the venv
        // module's ensurepip apart, in python3-venv): pyvenv.cfg beside bin/, bin/python3 a link to the interpreter.
        mkdirSync(join(venv, 'bin'));
        const version = spawnSync('/usr/bin/python3', ['-c', 'import platform; print(platform.python_version())'], {
          encoding: 'utf8',
        }).stdout.trim();
        writeFileSync(
          join(venv, 'pyvenv.cfg'),
          `home = /usr/bin\ninclude-system-site-packages = true\nversion = ${version}\n`,
        );
        symlinkSync('/usr/bin/python3', join(venv, 'bin', 'python3'));
        writeFileSync(join(venv, 'bin', 'ninja'), '#!/bin/sh\nexec /usr/bin/ninja "$@"\n');
        chmodSync(join(venv, 'bin', 'ninja'), 0o755);
        const python = join(venv, 'bin', 'python3');
        const t = torchToolchain(python);
        expect(t.ok, t.reason).toBe(true);
        const bin = realpathSync(join(venv, 'bin'));
        expect(t.binDirs).toEqual([bin]);
        expect(t.roots).toContain(realpathSync(venv));
        const r = await runCommand(
          sandboxArgv(
            {
              workDir: '/tmp',
              writable: false,
              roBinds: t.roots ?? [],
              limits: { cpuSeconds: 60, processes: 64, fileSize: 1 << 20, openFiles: 64 },
            },
            [
              python,
              '-I',
              '-c',
              'import shutil, torch.utils.cpp_extension as e; e.verify_ninja_availability(); print(shutil.which("ninja"))',
            ],
          ),
          {
            cwd: '/tmp',
            timeoutMs: 60_000,
            dropRoot: true,
            env: { PATH: sandboxPath({ toolchain: t }), HOME: '/tmp' },
          },
        );
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout.trim()).toBe(join(bin, 'ninja'));
      } finally {
        rmSync(venv, { recursive: true, force: true });
      }
    },
    120_000,
  );
});

describe('the GPU answers and cheats of bench/torch-cuda.mjs', () => {
  it('the honest load_inline and Triton answers give no scan findings; the cuda cheats are flagged', () => {
    expect(pythonReviewReasons(fixture('./torch-candidates-cuda/hardsigmoid_cuda.py'))).toEqual([]);
    expect(pythonReviewReasons(fixture('./torch-candidates-cuda/hardsigmoid_triton.py'))).toEqual([]);
    expect(pythonReviewReasons(fixture('./torch-cheats-cuda/side_stream.py')).join('\n')).toMatch(/CUDA stream/);
    expect(pythonReviewReasons(fixture('./torch-cheats-cuda/patch_sync.py')).join('\n')).toMatch(
      /monkeypatched \(torch\.cuda\.synchronize =/,
    );
  });
});

describe.skipIf(!hasTorch)('the staged (cuda) protocol on the cpu', () => {
  it('the reference renamed to ModelNew is accepted (inputs staged, run timed less the no-op, outputs fetched)', async () => {
    const state = await staged('101_HardSigmoid', renamed('101_HardSigmoid'));
    expect(state.verdict, state.message).toBe('accepted');
    const r = state.benchmarking_result!;
    expect(r.optimized_time).toBeGreaterThan(0);
    expect(r.speedup).toBeGreaterThan(0);
    console.log(`101_HardSigmoid staged on the cpu: ${r.speedup.toFixed(3)}x, ${r.optimized_time.toFixed(4)} ms`);
  }, 300_000);

  it('a wrong candidate is incorrect on the staged path too', async () => {
    const state = await staged('101_HardSigmoid', fixture('./torch-candidates/wrong_scale.py'));
    expect(state.verdict, state.message).toBe('incorrect');
  }, 300_000);

  it('outputs that are not tensors of the reference shape are a runtime error at fetch', async () => {
    const src = renamed('101_HardSigmoid').replace(
      'def forward(self, x: torch.Tensor) -> torch.Tensor:',
      'def forward(self, x: torch.Tensor) -> torch.Tensor:\n        return x[:1]',
    );
    expect(src).not.toBe(renamed('101_HardSigmoid'));
    const state = await staged('101_HardSigmoid', src);
    expect(state.verdict, state.message).toBe('runtime_error');
    expect(state.message).toMatch(/shape/);
  }, 300_000);

  // Brief R (issue 31 follow-up): `prepare` and `fetch` run in the worker's process, untimed. lazy_fetch.py's forward()
  // returns a tensor subclass that computes HardSigmoid only when the worker copies it out in `fetch`: accepted at
  // 9-46x here (its honest twin 0.7-2.1x, on a loaded 2-core VM) before the untimed steps were held to the
  // baseline's (each side's fastest round trip: load only adds time). More samples than the quick rules' 5, so each
  // side's fastest is near its floor on a loaded machine.
  const moreSamples: TimingRules = { ...QUICK_TIMING, minSamples: 12, maxMs: 6_000 };
  it('work moved into the untimed fetch (a result computed as it is copied out) is rejected; its honest twin is not', async () => {
    const cheat = await staged('101_HardSigmoid', fixture('./torch-cheats/lazy_fetch.py'), cpuDevice(), moreSamples);
    expect(cheat.verdict, cheat.message).toBe('rejected');
    expect(cheat.message).toMatch(/untimed steps .* work moved out of the timed call/);
    console.log(`lazy_fetch.py staged on the cpu: ${cheat.message}`);
    const honest = () =>
      staged(
        '101_HardSigmoid',
        `KF_HONEST_TWIN = True\n${fixture('./torch-cheats/lazy_fetch.py')}`,
        cpuDevice(),
        moreSamples,
      );
    const untimedFlag = (s: EvaluationState) =>
      /untimed steps/.test(s.benchmarking_result?.review_reasons.join(' ') ?? '');
    // Judged once, as the cheat: on a cpu the steps are process cpu, whose slack covers two processes' copies of the
    // same bytes (cuda-trust.ts STAGED_CPU_SLACK_SHARE). At 5% this twin was flagged in about half of the CI runs.
    const twin = await honest();
    expect(twin.verdict, twin.message).toBe('accepted');
    expect(untimedFlag(twin), twin.benchmarking_result?.review_reasons.join(' ')).toBe(false);
  }, 300_000);

  it('a cuda device is refused with its reason where PyTorch has no CUDA', async () => {
    const reason = torchCudaUnavailable(tc.versions);
    if (reason === null) return; // a CUDA PyTorch: bench/torch-cuda.mjs covers it on a GPU
    const device: Device = { ...cpuDevice(), id: 'cuda-H100', kind: 'cuda', name: 'NVIDIA H100 (none here)' };
    const state = await staged('101_HardSigmoid', renamed('101_HardSigmoid'), device);
    expect(state.verdict).toBe('compile_error');
    expect(state.message).toContain(reason);
  }, 300_000);
});
