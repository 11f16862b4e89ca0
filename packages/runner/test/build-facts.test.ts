import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileCandidate } from '../src/backends/c-abi/compile/compile-candidate.js';
import { toolchainFor } from '../src/backends/c-abi/compile/toolchain.js';
import { findHotLoop, selectAssembly } from '../src/profile/assembly.js';
import { cpuCounters } from '../src/profile/counters.js';
import { parseVectorizationReport } from '../src/profile/vectorization.js';
import { fixture, run } from './helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const OBJDUMP = `
Disassembly of section .text:

0000000000001040 <GOMP_parallel@plt>:
    1040:\tjmp    *0x2fe2(%rip)

0000000000001170 <solution._omp_fn.0>:
    1170:\tpush   %rbp
    1178:\tvmovups (%rsi,%rax,1),%ymm0
    117d:\tvmaxps %ymm1,%ymm0,%ymm0
    1181:\tvmovups %ymm0,(%rdi,%rax,1)
    1186:\tadd    $0x20,%rax
    118a:\tcmp    %rax,%rdx
    118d:\tjne    1178 <solution._omp_fn.0+0x8>
    1190:\tvmovss (%rsi,%rax,4),%xmm0
    1195:\tinc    %rax
    1198:\tjne    1190 <solution._omp_fn.0+0x20>
    119a:\tret

0000000000001200 <unrelated>:
    1200:\tret

00000000000013a0 <solution>:
    13a0:\tlea    -0x258(%rip),%rdi        # 1170 <solution._omp_fn.0>
    13a7:\tcall   1040 <GOMP_parallel@plt>
    13ac:\tret
`;

describe('build facts', () => {
  it('the assembly is solution and what it reaches (not the PLT, not unrelated code), with the vector loop marked hot', () => {
    const picked = selectAssembly(OBJDUMP);
    expect(picked.symbols).toEqual(['solution', 'solution._omp_fn.0']);
    expect(picked.assembly).not.toContain('<unrelated>:');
    const hot = findHotLoop(picked.assembly)!;
    const lines = picked.assembly.split('\n');
    expect(hot.function).toBe('solution._omp_fn.0');
    expect(hot.vector_bits).toBe(256);
    expect(lines[hot.start_line - 1]).toContain('1178:');
    expect(lines[hot.end_line - 1]).toContain('jne    1178');
  });

  it('the vectorization report gives one row per loop: vectorized at which widths, or why not', () => {
    const rows = parseVectorizationReport(
      [
        'source.c:6:49: optimized: loop vectorized using 32 byte vectors',
        'source.c:6:49: optimized:  loop versioned for vectorization because of possible aliasing',
        'source.c:6:49: optimized: loop vectorized using 16 byte vectors',
        "source.c:3:63: missed: couldn't vectorize loop",
        'source.c:3:63: missed: not vectorized: control flow in loop.',
        'source.c:3:63: missed: not vectorized: control flow in loop.',
        'source.c:4:6: missed: statement clobbers memory: __builtin_GOMP_parallel (solution._omp_fn.0);',
        'source.c:3:63: note: vectorized 0 loops in function.',
      ].join('\n'),
    );
    expect(rows).toEqual([
      { line: 3, column: 63, vectorized: false, widths: [], reasons: ['control flow in loop.'] },
      {
        line: 6,
        column: 49,
        vectorized: true,
        widths: [32, 16],
        reasons: ['loop versioned for vectorization because of possible aliasing'],
      },
    ]);
  });

  it('counters on the cpu: a reason that says why not, never a silent absence', () => {
    const c = cpuCounters();
    expect(c.available).toBe(false);
    expect(c.reason).toMatch(/^not available here, because /);
    expect(c.reason).toMatch(/seccomp/);
  });

  it('the facts change no generated code: solution compiled with and without the report flag is the same', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kforge-facts-'));
    dirs.push(dir);
    chmodSync(dir, 0o777);
    writeFileSync(join(dir, 'main.c'), 'int main(void) { return 0; }\n');
    const tc = toolchainFor('c');
    execFileSync(tc.binary, [...tc.flags, '-c', 'main.c', '-o', 'main.o'], { cwd: dir });
    const source = fixture('./candidates/relu_omp.c');
    const compiled = await compileCandidate({
      jobDir: dir,
      language: 'c',
      source,
      toolchain: tc,
      workerObjects: ['main.o'],
    });
    expect(compiled.report.ok, compiled.report.log).toBe(true);
    // The recorded flags are the fixed ones: the report flag is the facts', not the build's.
    expect(compiled.report.flags).toEqual([...tc.flags, ...tc.linkFlags]);
    const facts = compiled.report.facts!;
    expect(facts.symbols[0]).toBe('solution');
    execFileSync(tc.binary, [...tc.flags, '-o', 'plain', 'source.c', 'main.o', ...tc.linkFlags], { cwd: dir });
    const plain = selectAssembly(
      execFileSync('objdump', ['-d', '--no-show-raw-insn', 'plain'], {
        cwd: dir,
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      }),
    );
    expect(facts.assembly).toBe(plain.assembly);

    // gcc appends to its report file: a second compile in the same folder reports its own loops only.
    const again = await compileCandidate({
      jobDir: dir,
      language: 'c',
      source:
        '#include <stdint.h>\n\n\n\n\n\n\nvoid solution(const float* x, float* y, int64_t n) {\n  for (int64_t i = 0; i < n; i++) { if (x[i] < -9.0f) break; y[i] = x[i]; }\n}\n',
      toolchain: tc,
      workerObjects: ['main.o'],
    });
    const lines = again.report.facts?.vectorization?.map((l) => l.line) ?? [];
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l >= 8)).toBe(true);
  }, 60_000);

  it('an accepted C attempt on 19_ReLU carries its assembly, hot loop, vectorization and counters-or-reason, and the same verdict', async () => {
    const state = await run('19_ReLU', fixture('./candidates/relu_omp.c'));
    expect(state.verdict, state.message).toBe('accepted');
    const facts = state.compile!.facts!;
    expect(facts.symbols).toContain('solution');
    expect(facts.assembly).toMatch(/<solution>:/);
    expect(facts.hot_loop?.vector_bits).toBeGreaterThanOrEqual(128);
    expect(facts.vectorization?.some((l) => l.vectorized && l.widths.length > 0)).toBe(true);
    expect(facts.counters.available || facts.counters.reason).toBeTruthy();
    // The report file is gone before the worker runs, and the figures are the usual ones.
    expect(state.environment?.flags).not.toContain(expect.stringMatching(/fopt-info/));
    expect(state.benchmarking_result?.speedup).toBeGreaterThan(0);
  }, 120_000);
});

describe('built harnesses shared by the processes of a test run (KFORGE_HARNESS_CACHE_SHARE)', () => {
  it('a second work folder takes the first one’s build instead of building it again', async () => {
    const { buildHarness, harnessCacheDir } = await import('../src/backends/c-abi/harness/build.js');
    const { catalogue } = await import('./helpers.js');
    const share = mkdtempSync(join(tmpdir(), 'kf-harness-share-'));
    const [a, b] = [mkdtempSync(join(tmpdir(), 'kf-wd-a-')), mkdtempSync(join(tmpdir(), 'kf-wd-b-'))];
    dirs.push(share, a, b);
    chmodSync(share, 0o755); // as scripts/test.mjs's folder is made (mkdtemp's is the runner's alone)
    const before = process.env.KFORGE_HARNESS_CACHE_SHARE;
    try {
      delete process.env.KFORGE_HARNESS_CACHE_SHARE;
      expect(harnessCacheDir(a)).toBe(join(a, 'cache'));
      process.env.KFORGE_HARNESS_CACHE_SHARE = share;
      const problem = catalogue.get('20_LeakyReLU');
      if (!problem) throw new Error('no 20_LeakyReLU');
      const first = await buildHarness(problem, a, 'cpu');
      expect(first.dir.startsWith(`${share}/`)).toBe(true);
      const harnessIno = statSync(first.harness).ino;
      // The second work folder's build is the first's: the same files, not rebuilt.
      const second = await buildHarness(problem, b, 'cpu');
      expect(second.dir).toBe(first.dir);
      expect(statSync(second.harness).ino).toBe(harnessIno);
      expect(readdirSync(share)).toHaveLength(1);
    } finally {
      if (before === undefined) delete process.env.KFORGE_HARNESS_CACHE_SHARE;
      else process.env.KFORGE_HARNESS_CACHE_SHARE = before;
    }
  }, 120_000);
});
