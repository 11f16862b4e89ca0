// The tuner on a cuda device (issue 33 item 4): the forward's elementwise tail as a generated CUDA kernel (load_inline)
// or Triton kernel. Without a GPU: the search offers them on cuda (not the cpu's OpenMP loop), the CUDA part compiles
// with nvcc, the C++ glue with the system compiler against PyTorch's headers, and the Triton kernel's arithmetic runs
// through a small interpreter of the triton.language calls it uses (triton_shim.py) against the reference's ops.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Device, Problem } from '@kernelforge/sdk';
import { describe, expect, test } from 'vitest';
import { createAgent } from '../../src/agents/index.js';
import { readForward } from '../../src/agents/tuner/torch/forward.js';
import { findTail } from '../../src/agents/tuner/torch/fuse.js';
import { cudaTailCpp, cudaTailKernel, tritonOp } from '../../src/agents/tuner/torch/gpu.js';
import { renderTorch } from '../../src/agents/tuner/torch/render.js';
import { torchSpace } from '../../src/agents/tuner/torch/space.js';
import { CPU, PROBLEMS_DIR, problem } from './helpers/problems.js';
import { context } from './helpers/session.js';

const H100: Device = {
  id: 'cuda-H100',
  kind: 'cuda',
  name: 'NVIDIA H100 80GB HBM3',
  cores: 16,
  peaks: { bandwidth_gbps: 3350, fp32_gflops: 67_000, source: 'table' },
  available: true,
  runners: 1,
  languages: ['cuda', 'pytorch'],
};

const files = ['level1', 'level2', 'level3'].flatMap((l) =>
  readdirSync(join(PROBLEMS_DIR, 'pytorch', l)).map((f) => join(PROBLEMS_DIR, 'pytorch', l, f)),
);
const withTail = files
  .map((f) => ({ f, text: readFileSync(f, 'utf8') }))
  .map(({ f, text }) => ({ f, text, fwd: readForward(text) }))
  .filter(({ fwd, text }) => fwd && findTail(fwd, text))
  .map(({ f, text, fwd }) => ({ f, text, fwd: fwd!, tail: findTail(fwd!, text)! }));

function torchProblem(path: string): Problem {
  const name = path.split('/').pop()!.replace(/\.py$/, '');
  return problem(name, {
    kind: 'pytorch',
    level: 2,
    languages: ['pytorch'],
    signature: [],
    reference_source: readFileSync(path, 'utf8'),
  });
}

/** The interpreter with PyTorch (the runner's: KFORGE_PYTHON, else Debian's). */
const PY = process.env.KFORGE_PYTHON ?? '/usr/bin/python3';
const nvcc = ['/usr/local/cuda/bin/nvcc', '/usr/local/bin/nvcc', '/usr/bin/nvcc'].find((p) => existsSync(p));
const torchInclude = (() => {
  try {
    return execFileSync(PY, ['-c', 'import torch.utils.cpp_extension as e; print("\\n".join(e.include_paths()))'], {
      encoding: 'utf8',
      timeout: 120_000,
    })
      .trim()
      .split('\n');
  } catch {
    return null;
  }
})();
const pythonInclude = (() => {
  try {
    return execFileSync(PY, ['-c', 'import sysconfig; print(sysconfig.get_paths()["include"])'], {
      encoding: 'utf8',
    }).trim();
  } catch {
    return null;
  }
})();

describe('the search on a cuda device', () => {
  test('at least two shipped problems have a tail (201_Gemm_GELU_Scale among them)', () => {
    expect(withTail.length).toBeGreaterThanOrEqual(2);
    expect(withTail.some(({ f }) => f.endsWith('201_Gemm_GELU_Scale.py'))).toBe(true);
  });

  test('a tail is offered as Triton and CUDA kernels on cuda, as the OpenMP loop on the cpu; no thread counts on cuda', () => {
    const p = torchProblem(withTail.find(({ f }) => f.endsWith('201_Gemm_GELU_Scale.py'))!.f);
    const gpu = torchSpace(p, 16, 'cuda');
    const cpu = torchSpace(p, 16, 'cpu');
    if ('why' in gpu || 'why' in cpu) throw new Error('no space');
    expect(gpu.modes).toEqual(expect.arrayContaining(['triton_fused', 'cuda_fused']));
    expect(gpu.modes).not.toContain('fused');
    expect(gpu.threads).toEqual([0]);
    expect(cpu.modes).toContain('fused');
    expect(cpu.modes).not.toContain('triton_fused');
  });

  test('after the baseline the tuner on cuda tries the Triton tail, then the CUDA one, and says which compiled baseline', async () => {
    const p = torchProblem(withTail.find(({ f }) => f.endsWith('201_Gemm_GELU_Scale.py'))!.f);
    const agent = createAgent({ provider: 'tuner' }, {});
    const first = await agent.generate({ ...context(p.name, []), problem: p, device: H100 });
    expect((first.agent_meta?.torch_point as { mode: string } | undefined)?.mode).toBe('eager');
    const history = [
      {
        attempt_number: 1,
        status: 'completed' as const,
        source: first.source,
        explanation: first.explanation,
        evaluation_state: {
          verdict: 'accepted',
          mode: 'benchmark',
          message: 'accepted',
          compile: null,
          correctness: null,
          runner_seconds: 1,
          evaluated_at: '2026-11-27T00:00:00Z',
          benchmarking_result: {
            optimized_time: 0.1,
            baseline_time: 0.1,
            speedup: 1,
            compiled_baseline_time: 0.09,
            gbps: 0,
            gflops: 0,
            fraction_of_peak: 0,
            cases: [],
            flagged_for_review: false,
            review_reasons: [],
          },
        } as never,
        agent_meta: first.agent_meta ?? null,
      },
    ];
    const second = await agent.generate({ ...context(p.name, history), problem: p, device: H100 });
    expect((second.agent_meta?.torch_point as { mode: string } | undefined)?.mode).toBe('triton_fused');
    expect(second.source).toContain('@_kf_triton.jit');
    expect(second.explanation).toMatch(/Triton kernel/);
    expect(second.explanation).not.toMatch(/TorchScript/);
    // The cpu device keeps its OpenMP loop.
    const onCpu = await agent.generate({ ...context(p.name, history), problem: p, device: CPU });
    expect((onCpu.agent_meta?.torch_point as { mode: string } | undefined)?.mode).toBe('fused');
  });
});

describe('the generated kernels', () => {
  test('each tail op becomes Triton statements (ternaries as tl.where, libm as tl, scalars and channels as arguments)', () => {
    expect(tritonOp('v = v >= 0.0f ? v : v * s[0];')).toEqual(['v = tl.where(v >= 0.0, v, v * s0)']);
    expect(tritonOp('v = std::min(std::max(v, ((float)(-1.0))), ((float)(1.0)));')).toEqual([
      'v = tl.minimum(tl.maximum(v, (-1.0)), (1.0))',
    ]);
    expect(tritonOp('{ const float bx = v * s[0]; v = bx > s[1] ? v : std::log1p(std::exp(bx)) / s[0]; }')).toEqual([
      'bx = v * s0',
      'v = tl.where(bx > s1, v, _kf_log1p(tl.exp(bx)) / s0)',
    ]);
    expect(tritonOp('v = v + t0[c];')).toEqual(['v = v + tl.load(t0 + c, mask=mask, other=0.0)']);
    expect(() => tritonOp('v = a[i];')).toThrow(/cannot write/);
  });

  for (const { f, tail } of withTail) {
    const name = f.split('/').pop()!;
    test.skipIf(!nvcc)(
      `${name}: the CUDA kernel compiles with nvcc for sm_90 (no GPU needed)`,
      () => {
        const dir = mkdtempSync(join(tmpdir(), 'kf-tail-cu-'));
        writeFileSync(join(dir, 'tail.cu'), cudaTailKernel(tail));
        execFileSync(nvcc!, ['-O3', '-arch=sm_90', '-c', 'tail.cu', '-o', 'tail.o'], { cwd: dir, timeout: 240_000 });
        expect(existsSync(join(dir, 'tail.o'))).toBe(true);
      },
      300_000,
    );
  }

  // One glue file (the one with the most per-channel operands): PyTorch's headers take a minute a file to parse here.
  const most = [...withTail].sort((a, b) => b.tail.tensors.length - a.tail.tensors.length)[0]!;
  test.skipIf(!torchInclude || !pythonInclude)(
    `${most.f.split('/').pop()}: the C++ glue compiles against PyTorch's headers`,
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'kf-tail-cpp-'));
      writeFileSync(join(dir, 'glue.cpp'), cudaTailCpp(most.tail));
      execFileSync(
        'c++',
        ['-std=c++17', '-fsyntax-only', ...torchInclude!.map((i) => `-I${i}`), `-I${pythonInclude}`, 'glue.cpp'],
        { cwd: dir, timeout: 240_000 },
      );
    },
    300_000,
  );

  test("201_Gemm_GELU_Scale's Triton ModelNew computes the reference's values (run through the triton.language interpreter)", () => {
    const t = withTail.find(({ f }) => f.endsWith('201_Gemm_GELU_Scale.py'))!;
    const src = renderTorch(t.text, t.fwd, t.tail, { mode: 'triton_fused', layout: 'contiguous', threads: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'kf-triton-'));
    writeFileSync(join(dir, 'model_new.py'), src);
    const out = JSON.parse(
      execFileSync(PY, [join(__dirname, 'triton_shim.py'), join(dir, 'model_new.py')], {
        input: JSON.stringify({ batch_size: 8, in_features: 64, out_features: 200 }),
        encoding: 'utf8',
        timeout: 120_000,
      }),
    );
    // 1,600 outputs: two programs of 1,024, the second masked.
    expect(out.numel).toBe(1600);
    expect(out.max_abs_error).toBeLessThan(1e-5);
    // And a wrong tail is caught: the scale dropped.
    const wrong = src.replace(/v = v \* s0/, 'v = v');
    expect(wrong).not.toBe(src);
    writeFileSync(join(dir, 'wrong.py'), wrong);
    const bad = JSON.parse(
      execFileSync(PY, [join(__dirname, 'triton_shim.py'), join(dir, 'wrong.py')], {
        input: JSON.stringify({ batch_size: 8, in_features: 64, out_features: 200 }),
        encoding: 'utf8',
        timeout: 120_000,
      }),
    );
    expect(bad.max_abs_error).toBeGreaterThan(1e-3);
  }, 300_000);
});
