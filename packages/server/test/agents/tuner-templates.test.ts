// Every problem's tuner templates render to source the real compilers accept, at the start and at each neighbour.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Device } from '@kernelforge/sdk';
import { cpuInfo } from '@kernelforge/runner';
import { fitVariant } from '../../src/agents/tuner/fit.js';
import { isValid, normalise, startPoint } from '../../src/agents/tuner/points.js';
import { renderTemplate } from '../../src/agents/tuner/render.js';
import { loadSpace, type Params, type Variant } from '../../src/agents/tuner/space.js';
import { compileOnly } from './helpers/gcc-eval.js';
import { PROBLEMS_DIR } from './helpers/problems.js';

const withTuner = readdirSync(PROBLEMS_DIR).filter((p) => existsSync(join(PROBLEMS_DIR, p, 'tuner', 'space.json')));
const hasNvcc = (() => {
  try {
    execFileSync('nvcc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const base = {
  kind: 'cpu' as const,
  name: 'cpu',
  peaks: { bandwidth_gbps: 0, fp32_gflops: 0, source: 'unknown' as const },
  available: true,
  runners: 1,
  languages: ['c'],
};
const caches = { l1d_bytes: 48 * 1024, l2_bytes: 2 * 1024 * 1024, l3_bytes: 32 * 1024 * 1024 };
/** This machine as the runner reports it, and the other kinds of cpu the spaces are fitted to (rendered here too). */
const DEVICES: Record<string, Device> = {
  'this machine': { id: 'cpu-here', ...base, cpu: cpuInfo() },
  avx512: {
    id: 'cpu-avx512',
    ...base,
    cpu: {
      arch: 'x86_64',
      vector_isa: 'avx512',
      isa: ['avx2', 'fma', 'avx512f'],
      vector_bits: 512,
      vector_registers: 32,
      caches,
    },
  },
  avx2: {
    id: 'cpu-avx2',
    ...base,
    cpu: { arch: 'x86_64', vector_isa: 'avx2', isa: ['avx2', 'fma'], vector_bits: 256, vector_registers: 16, caches },
  },
  neon: {
    id: 'cpu-arm64',
    ...base,
    cpu: { arch: 'arm64', vector_isa: 'neon', isa: ['neon'], vector_bits: 128, vector_registers: 32, caches },
  },
  'an older runner (no cpu facts)': { id: 'cpu-old', ...base },
};

/** One compile per distinct source and language in this file: fitted to different cpus, a template often renders
    the same source, and the answer cannot differ. */
const compiled = new Map<string, Promise<{ ok: boolean; log: string }>>();
function compileOnce(src: string, language: 'c' | 'cpp') {
  const key = `${language}\0${src}`;
  let done = compiled.get(key);
  if (!done) {
    done = compileOnly(src, language);
    compiled.set(key, done);
  }
  return done;
}

/** The start point and every valid one-step neighbour of it. */
function points(v: Variant): Params[] {
  const start = startPoint(v);
  const out = [start];
  for (const p of v.params) {
    const i = p.values.indexOf(start[p.name] as never);
    for (const j of [i - 1, i + 1]) {
      const value = p.values[j];
      if (value === undefined) continue;
      const next = normalise(v, { ...start, [p.name]: value });
      if (isValid(v, next)) out.push(next);
    }
  }
  return out;
}

test('the built-in problems with a tuner include ReLU and the matmul', () => {
  expect(withTuner).toEqual(expect.arrayContaining(['19_ReLU', '1_Square_matrix_multiplication_']));
});

describe.each(withTuner)('%s', (name) => {
  const space = loadSpace(PROBLEMS_DIR, name);

  test.each(Object.keys(DEVICES))(
    'its cpu template fitted to %s compiles with gcc -O3 -march=native -fopenmp at the start and each neighbour',
    async (kind) => {
      const found = space?.variants.find((v) => v.backend === 'cpu');
      expect(found).toBeDefined();
      const cpu = fitVariant(found as Variant, DEVICES[kind] as Device);
      const all = kind === 'this machine' ? points(cpu) : [startPoint(cpu)];
      const sources = all.map((params) => renderTemplate(cpu.template, { ...cpu.constants, ...params }));
      for (const src of sources) {
        expect(src).not.toMatch(/\{\{/);
        expect(src).toMatch(/\bvoid solution\(/);
      }
      // The points' compiles at once (gcc is one process each; the cores are this file's to share with the pass).
      const results = await Promise.all(
        sources.map((src) => compileOnce(src, (cpu as Variant).language === 'cpp' ? 'cpp' : 'c')),
      );
      results.forEach(({ ok, log }, i) => {
        expect(ok, `${name} ${JSON.stringify(all[i])}\n${log}`).toBe(true);
      });
    },
  );
});

/** The problems whose tuner has a cuda template; on a GPU the tuner declines the others with a message naming it. */
const withCuda = withTuner.filter((name) => loadSpace(PROBLEMS_DIR, name)?.variants.some((v) => v.backend === 'cuda'));

test('the tuner has cuda templates for ReLU and the square matmul; every other tuned problem is cpu-only', () => {
  expect([...withCuda].sort()).toEqual(['19_ReLU', '1_Square_matrix_multiplication_'].sort());
  for (const name of withTuner.filter((n) => !withCuda.includes(n))) {
    const backends = new Set(loadSpace(PROBLEMS_DIR, name)?.variants.map((v) => v.backend));
    expect([...backends], name).toEqual(['cpu']);
  }
});

describe.each(withCuda)('%s', (name) => {
  test.skipIf(!hasNvcc)('its cuda template compiles with nvcc at the start point and its first neighbours', () => {
    const cuda = loadSpace(PROBLEMS_DIR, name)?.variants.find((v) => v.backend === 'cuda') as Variant;
    const dir = mkdtempSync(join(tmpdir(), 'kf-nvcc-'));
    try {
      const tried = points(cuda).slice(0, 3);
      expect(tried.length).toBeGreaterThan(0);
      for (const params of tried) {
        const file = join(dir, 'k.cu');
        writeFileSync(file, renderTemplate(cuda.template, params));
        execFileSync('nvcc', ['-O3', '-arch=sm_90', '-c', file, '-o', join(dir, 'k.o')], {
          stdio: 'pipe',
          timeout: 120_000,
        });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
