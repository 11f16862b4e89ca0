// cuda build facts with the real nvcc of this machine (no GPU needed): ptxas's resource usage per kernel for sm_80,
// sm_90 and sm_100, occupancy against the CUDA toolkit's own cuda_occupancy.h, launch sizes from the source, the PTX
// with its hot loop, and the compile step that gathers them (its log and its code unchanged).
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Device } from '@kernelforge/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { compileCandidate } from '../src/backends/c-abi/compile/compile-candidate.js';
import { evaluate } from '../src/index.js';
import { toolchainFor } from '../src/backends/c-abi/compile/toolchain.js';
import {
  CUDA_FACTS_FLAGS,
  KEEP_DIR,
  NO_CUOBJDUMP,
  archOfFlags,
  findCuobjdump,
  gatherCudaFacts,
} from '../src/profile/cuda-facts.js';
import {
  findDeviceHotLoop,
  ptxConstantBytes,
  ptxEntries,
  ptxLaunchBounds,
  selectPtx,
  selectSass,
} from '../src/profile/device-code.js';
import { baseName, launchBlockSizes } from '../src/profile/launch.js';
import { findNcu, runNcuProfile } from '../src/profile/ncu.js';
import { ARCH_LIMITS, archLimits, theoreticalOccupancy } from '../src/profile/occupancy.js';
import { parsePtxasInfo, withoutPtxasInfo } from '../src/profile/ptxas.js';
import { sandboxAvailable } from '../src/sandbox/bwrap.js';
import { catalogue, fixture, payload, workDir } from './helpers.js';

const hasNvcc = (() => {
  try {
    execFileSync('nvcc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'kforge-cuda-facts-'));
  dirs.push(d);
  return d;
}

const RESOURCES = fixture('./cuda/resources.cu');
const OCC_HEADER = '/usr/local/cuda/include/cuda_occupancy.h';
// Written from cuobjdump -sass's layout (no cuobjdump on this machine): a kernel header, then /*addr*/ instr ; /*enc*/.
const SASS_SAMPLE = [
  '',
  'Fatbin elf code:',
  '================',
  'arch = sm_90',
  '',
  '\tcode for sm_90',
  '\t\tFunction : _Z4reluPKfPfl',
  '\t.headerflags\t@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"',
  '        /*0000*/                   LDC R1, c[0x0][0x28] ;                          /* 0x00000a00ff017b82 */',
  '                                                                                  /* 0x000fe40000000800 */',
  '        /*0010*/                   S2R R0, SR_TID.X ;                              /* 0x0000000000007919 */',
  '        /*0020*/                   LDG.E R3, desc[UR4][R2.64] ;                    /* 0x0000000402037981 */',
  '        /*0030*/                   FMNMX R3, RZ, R3, !PT ;                         /* 0x00000003ff037209 */',
  '        /*0040*/                   IADD3 R0, R0, 0x100, RZ ;                       /* 0x0000010000007810 */',
  '        /*0050*/                   ISETP.GE.AND P0, PT, R0, UR6, PT ;              /* 0x0000000600007c0c */',
  '        /*0060*/               @!P0 BRA 0x20 ;                                    /* 0xffffffb000008947 */',
  '        /*0070*/                   EXIT ;                                          /* 0x000000000000794d */',
  '        /*0080*/                   BRA 0x80;                                       /* 0xfffffffc00fc7947 */',
  '\t\t..........',
].join('\n');

/** nvcc -Xptxas -v of resources.cu for one arch: the output ptxas prints, as the compile step sees it. */
function ptxasOutput(arch: string): string {
  const dir = tmp();
  writeFileSync(join(dir, 'k.cu'), RESOURCES);
  const r = execFileSync('nvcc', ['-O3', `-arch=${arch}`, '-Xptxas', '-v', '-c', 'k.cu', '-o', 'k.o', '2>&1'], {
    cwd: dir,
    encoding: 'utf8',
    shell: '/bin/sh',
    timeout: 120_000,
  });
  return r;
}

/** The .text.<kernel> sections of a cubin (the SASS of each kernel), by name. */
function textSections(cubin: Buffer): Map<string, Buffer> {
  const shoff = Number(cubin.readBigUInt64LE(0x28));
  const entsize = cubin.readUInt16LE(0x3a);
  const count = cubin.readUInt16LE(0x3c);
  const strndx = cubin.readUInt16LE(0x3e);
  const sec = (i: number) => {
    const o = shoff + i * entsize;
    return {
      name: cubin.readUInt32LE(o),
      off: Number(cubin.readBigUInt64LE(o + 0x18)),
      size: Number(cubin.readBigUInt64LE(o + 0x20)),
    };
  };
  const strtab = sec(strndx).off;
  const out = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const s = sec(i);
    const end = cubin.indexOf(0, strtab + s.name);
    const name = cubin.subarray(strtab + s.name, end).toString();
    if (name.startsWith('.text.')) out.set(name, cubin.subarray(s.off, s.off + s.size));
  }
  return out;
}

describe('ptxas resource usage', () => {
  it('a recorded CUDA 12 / sm_80 log with cmem and a device function: every field, the device function left out', () => {
    const info = parsePtxasInfo(
      [
        'ptxas info    : 0 bytes gmem, 256 bytes cmem[3]',
        'ptxas info    : Function properties for _Z6helperPf',
        '    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads',
        "ptxas info    : Compiling entry function '_Z4gemmPKfS0_Pfi' for 'sm_80'",
        'ptxas info    : Function properties for _Z4gemmPKfS0_Pfi',
        '    24 bytes stack frame, 16 bytes spill stores, 12 bytes spill loads',
        'ptxas info    : Used 255 registers, used 1 barriers, 2048 bytes smem, 380 bytes cmem[0], 8 bytes cmem[2]',
        'ptxas info    : Compile time = 9.1 ms',
        "ptxas info    : Compiling entry function '_Z3oldPf' for 'sm_52'",
        'ptxas info    : Used 4 registers, 32+16 bytes smem, 320 bytes cmem[0]',
      ].join('\n'),
    );
    expect(info.user_constant_bytes).toBe(256);
    expect(info.global_bytes).toBe(0);
    expect(info.kernels).toEqual([
      {
        mangled: '_Z4gemmPKfS0_Pfi',
        arch: 'sm_80',
        registers: 255,
        stack_bytes: 24,
        spill_store_bytes: 16,
        spill_load_bytes: 12,
        shared_bytes: 2048,
        constant_bytes: 388,
        barriers: 1,
      },
      {
        mangled: '_Z3oldPf',
        arch: 'sm_52',
        registers: 4,
        stack_bytes: 0,
        spill_store_bytes: 0,
        spill_load_bytes: 0,
        shared_bytes: 48,
        constant_bytes: 320,
        barriers: null,
      },
    ]);
  });

  it.skipIf(!hasNvcc)(
    'real nvcc for sm_90 and sm_100: registers, spills, local arrays, shared memory, barriers of each kernel',
    () => {
      for (const arch of ['sm_90', 'sm_100']) {
        const out = ptxasOutput(arch);
        const { kernels } = parsePtxasInfo(out);
        const by = new Map(kernels.map((k) => [k.mangled, k]));
        expect([...by.keys()].sort(), out).toEqual(
          ['_Z4reluPKfPfl', '_Z5spillPKfPfi', '_Z5tiledILi256EEvPKfPfi', '_Z7bigregsPKfPfi'].sort(),
        );
        for (const k of kernels) expect(k.arch).toBe(arch);
        const relu = by.get('_Z4reluPKfPfl')!;
        expect(relu.registers).toBeGreaterThan(0);
        expect(relu.registers).toBeLessThan(32);
        expect(relu.spill_store_bytes + relu.stack_bytes + relu.shared_bytes).toBe(0);
        // 256 floats of __shared__, one __syncthreads.
        expect(by.get('_Z5tiledILi256EEvPKfPfi')).toMatchObject({ shared_bytes: 1024, barriers: 1 });
        // A 256-float local array indexed at run time lives in local memory: a 1 KiB stack frame, no spills.
        expect(by.get('_Z5spillPKfPfi')!.stack_bytes).toBeGreaterThanOrEqual(1024);
        // __launch_bounds__(1024) caps registers at 64: 64 live accumulators spill.
        const big = by.get('_Z7bigregsPKfPfi')!;
        expect(big.registers).toBeLessThanOrEqual(64);
        expect(big.spill_store_bytes).toBeGreaterThan(0);
        expect(big.spill_load_bytes).toBeGreaterThan(0);
      }
    },
    240_000,
  );

  it.skipIf(!hasNvcc)(
    "real nvcc for sm_80 prints constant banks: the kernel's and the module's __constant__",
    () => {
      const info = parsePtxasInfo(ptxasOutput('sm_80'));
      expect(info.user_constant_bytes).toBe(256);
      expect(info.kernels.every((k) => (k.constant_bytes ?? 0) > 0)).toBe(true);
    },
    120_000,
  );

  it('the log shown without ptxas info keeps warnings and errors', () => {
    const log = [
      "ptxas info    : Compiling entry function '_Z1kv' for 'sm_90'",
      'ptxas info    : Function properties for _Z1kv',
      '    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads',
      'ptxas info    : Used 2 registers, used 0 barriers',
      'source.cu(3): warning #177-D: variable "x" was declared but never referenced',
      'ptxas warning : Stack size for entry function cannot be statically determined',
    ].join('\n');
    expect(withoutPtxasInfo(log)).toBe(
      [
        'source.cu(3): warning #177-D: variable "x" was declared but never referenced',
        'ptxas warning : Stack size for entry function cannot be statically determined',
      ].join('\n'),
    );
  });
});

describe('theoretical occupancy', () => {
  it('hand-worked H100 cases: full, register-bound, shared-memory-bound, too many registers', () => {
    const h100 = archLimits('sm_90')!;
    expect(theoreticalOccupancy(h100, { registers: 32, shared_bytes: 0 }, 256, 'x')).toMatchObject({
      blocks_per_sm: 8,
      warps_per_sm: 64,
      occupancy: 1,
    });
    // 64 registers: 2048 per warp, 8 warps per sub-partition, 32 warps: one 1024-thread block, half the SM.
    expect(theoreticalOccupancy(h100, { registers: 64, shared_bytes: 0 }, 1024, 'x')).toMatchObject({
      blocks_per_sm: 1,
      occupancy: 0.5,
      limiter: 'registers',
    });
    // 48 KiB static + 1 KiB reserved per block: 4 blocks in 228 KiB.
    expect(theoreticalOccupancy(h100, { registers: 32, shared_bytes: 48 * 1024 }, 128, 'x')).toMatchObject({
      blocks_per_sm: 4,
      occupancy: 0.25,
      limiter: 'shared memory',
    });
    expect(theoreticalOccupancy(h100, { registers: 255, shared_bytes: 0 }, 1024, 'x')).toMatchObject({
      blocks_per_sm: 0,
      occupancy: 0,
    });
  });

  it.skipIf(!existsSync(OCC_HEADER))(
    "agrees with the CUDA toolkit's cuda_occupancy.h on every arch of the table",
    () => {
      const dir = tmp();
      execFileSync('c++', [
        '-O1',
        '-I/usr/local/cuda/include',
        fixtureFile('occupancy_ref.cpp'),
        '-o',
        join(dir, 'ref'),
      ]);
      const cases: { cc: string; regs: number; smem: number; barriers: number; block: number }[] = [];
      for (const cc of Object.keys(ARCH_LIMITS))
        for (const regs of [16, 32, 40, 64, 96, 128, 168, 255])
          for (const smem of [0, 4096, 12_345, 48 * 1024])
            for (const barriers of [0, 1, 3])
              for (const block of [32, 96, 128, 192, 256, 384, 512, 640, 1024])
                cases.push({ cc, regs, smem, barriers, block });
      const input = cases
        .map((c) => {
          const l = ARCH_LIMITS[c.cc]!;
          const [major, minor] = c.cc.split('.');
          return [
            major,
            minor,
            l.maxWarpsPerSm * 32,
            l.smemPerSm,
            l.smemPerBlockOptin,
            l.reservedSmemPerBlock,
            c.regs,
            c.smem,
            c.barriers,
            c.block,
          ].join(' ');
        })
        .join('\n');
      const ref = execFileSync(join(dir, 'ref'), { input, encoding: 'utf8', maxBuffer: 16 << 20 })
        .trim()
        .split('\n');
      expect(ref.length).toBe(cases.length);
      const wrong = cases.filter((c, i) => {
        const ours = theoreticalOccupancy(
          ARCH_LIMITS[c.cc]!,
          { registers: c.regs, shared_bytes: c.smem, barriers: c.barriers },
          c.block,
          'x',
        );
        return String(ours.blocks_per_sm) !== ref[i];
      });
      expect(wrong.slice(0, 5)).toEqual([]);
    },
  );
});

function fixtureFile(name: string): string {
  return new URL(`./cuda/${name}`, import.meta.url).pathname;
}

describe('launch sizes, PTX and SASS', () => {
  it("the source's launches give block sizes: literals, #define, const, dim3, templates; run-time sizes none", () => {
    const sizes = launchBlockSizes(`
#define TILE 16
#define THREADS (128)
constexpr int kBlock = 512;
static const unsigned WARPS = 8;
void solution(float* x, int n, int b) {
  relu<<<(unsigned)((n + 255) / 256), 256>>>(x, n);
  scale<<<n / THREADS, THREADS, 0, 0>>>(x);
  dim3 block(TILE, TILE), grid((n + 15) / 16, (n + 15) / 16);
  gemm<<<grid, block>>>(x);
  gemm2<<<grid, dim3(32, 8)>>>(x);
  tiled<64><<<1, kBlock>>>(x);
  warps<<<1, WARPS * 32>>>(x);
  dynamic<<<1, b>>>(x);
}`);
    expect(Object.fromEntries(sizes)).toEqual({
      relu: [256],
      scale: [128],
      gemm: [256],
      gemm2: [256],
      tiled: [512],
      warps: [256],
    });
    expect(baseName('void tiled<256, float>(float const*, float*, int)')).toBe('tiled');
    expect(Object.fromEntries(launchBlockSizes('#define  N\t64\nk<<<1, N>>>(x);'))).toEqual({ k: [64] });
    expect(baseName('ns::inner::relu(float const*, float*, long)')).toBe('relu');
  });

  // Linear time, 2 s allowed on a busy machine: the quadratic reading took 34 s on the first piece.
  it('a hostile source (200 KB of unterminated launches, dim3s, blank lines) is read in linear time', () => {
    for (const piece of ['k<<<', 'dim3 ', '\n', ' ', 'a<b<c<', 'const int ']) {
      const started = performance.now();
      launchBlockSizes(piece.repeat(200_000 / piece.length));
      expect(performance.now() - started, JSON.stringify(piece)).toBeLessThan(2000);
    }
  });

  it("hostile PTX and ptxas lines (a candidate's inline asm can fill the PTX with blank lines) are read in linear time", () => {
    const blank = `.visible .entry _Z1kv(\n${'\n'.repeat(100_000)}${' '.repeat(100_000)}\n}\n`;
    const digits = `ptxas info    : Used 1 registers, ${'9'.repeat(100_000)}\n`;
    for (const [what, run] of [
      ['constants', () => ptxConstantBytes(blank)],
      ['bounds', () => ptxLaunchBounds(blank)],
      ['entries', () => ptxEntries(blank)],
      ['hot loop (of the capped assembly, as gathered)', () => findDeviceHotLoop(selectPtx(blank).assembly)],
      ['ptxas', () => parsePtxasInfo(`ptxas info    : Compiling entry function '_Z1kv' for 'sm_90'\n${digits}`)],
    ] as const) {
      const started = performance.now();
      run();
      expect(performance.now() - started, what).toBeLessThan(2000);
    }
  });

  it.skipIf(!hasNvcc)(
    'the PTX of a tiled matmul: its kernels, launch bounds, constants and hot loop',
    () => {
      const dir = tmp();
      writeFileSync(join(dir, 'm.cu'), fixture('./cuda/resources.cu'));
      execFileSync('nvcc', ['-O3', '-arch=sm_90', '-ptx', 'm.cu', '-o', 'm.ptx'], { cwd: dir, timeout: 120_000 });
      const ptx = readFileSync(join(dir, 'm.ptx'), 'utf8');
      expect(
        ptxEntries(ptx)
          .map((e) => e.name)
          .sort(),
      ).toEqual(['_Z4reluPKfPfl', '_Z5spillPKfPfi', '_Z5tiledILi256EEvPKfPfi', '_Z7bigregsPKfPfi'].sort());
      expect(ptxLaunchBounds(ptx).get('_Z5tiledILi256EEvPKfPfi')).toEqual({ threads: 256, required: false });
      expect(ptxLaunchBounds(ptx).get('_Z4reluPKfPfl')).toBeUndefined();
      expect(ptxConstantBytes(ptx)).toBe(256);
      const gemm = `${ptx}\n${execFileSync('nvcc', ['-O3', '-arch=sm_90', '-ptx', '-o', '-', fixtureFile('gemm.cu')], { encoding: 'utf8', timeout: 120_000 })}`;
      const entry = ptxEntries(gemm).find((e) => e.name.includes('kf_tiled_gemm'))!;
      const hot = findDeviceHotLoop(entry.text)!;
      const body = entry.text.split('\n').slice(hot.start_line - 1, hot.end_line);
      expect(hot.function).toBe(entry.name);
      expect(body[0]).toMatch(/^\$L__BB\d+_\d+:$/);
      expect(body.at(-1)).toMatch(/\bbra(\.uni)?\s+\$L__BB/);
      // The loop body is the shared-memory tile product.
      expect(body.filter((l) => /ld\.shared\.f32/.test(l)).length).toBeGreaterThanOrEqual(16);
    },
    240_000,
  );

  it("the harness's own kernel in the worker binary (kf_busy) is not the candidate's: not among its symbols or its hot loop", () => {
    // The worker binary's SASS on an H200 listed relu and the harness's kf_busy, whose wait loop was marked hot.
    const busy = [
      '\t\tFunction : _Z7kf_busyx',
      '        /*0000*/                   CS2R R2, SR_CLOCKLO ;                           /* 0x0000000000027805 */',
      '        /*0010*/                   CS2R R4, SR_CLOCKLO ;                           /* 0x0000000000047805 */',
      '        /*0020*/                   IADD3 R6, P0, -R2, R4, RZ ;                     /* 0x0000000402067210 */',
      '        /*0030*/                   ISETP.GE.U32.AND P0, PT, R6, UR4, PT ;          /* 0x0000000406007c0c */',
      '        /*0040*/               @!P0 BRA 0x10 ;                                    /* 0xfffffffc00008947 */',
      '        /*0050*/                   EXIT ;                                          /* 0x000000000000794d */',
      '\t\t..........',
    ].join('\n');
    const picked = selectSass(`${SASS_SAMPLE}\n${busy}\n`);
    expect(picked.symbols).toEqual(['_Z4reluPKfPfl']);
    expect(picked.assembly).not.toContain('SR_CLOCKLO');
    expect(findDeviceHotLoop(picked.assembly)?.function).toBe('_Z4reluPKfPfl');
    expect(selectSass(`${SASS_SAMPLE}\n${busy}\n`, []).symbols).toEqual(['_Z4reluPKfPfl', '_Z7kf_busyx']);
  });

  it("SASS from cuobjdump's documented layout: kernels, encodings dropped, the backward branch marked, not the closing self-branch", () => {
    const dump = SASS_SAMPLE;
    const picked = selectSass(dump);
    expect(picked.symbols).toEqual(['_Z4reluPKfPfl']);
    expect(picked.assembly).not.toContain('0x00000a00ff017b82');
    const hot = findDeviceHotLoop(picked.assembly)!;
    const lines = picked.assembly.split('\n');
    expect(lines[hot.start_line - 1]).toContain('/*0020*/ LDG.E');
    expect(lines[hot.end_line - 1]).toContain('@!P0 BRA 0x20');
  });
});

describe.skipIf(!hasNvcc)('the compile step', () => {
  it('the facts flags change no SASS: every kernel of the kept cubin equals a plain build', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'source.cu'), RESOURCES);
    mkdirSync(join(dir, KEEP_DIR));
    const tc = toolchainFor('cuda', '9.0');
    execFileSync(tc.binary, [...tc.flags, ...CUDA_FACTS_FLAGS, '-c', 'source.cu', '-o', 'facts.o'], {
      cwd: dir,
      stdio: 'pipe',
      timeout: 120_000,
    });
    execFileSync(tc.binary, [...tc.flags, '-cubin', 'source.cu', '-o', 'plain.cubin'], { cwd: dir, timeout: 120_000 });
    const kept = textSections(readFileSync(join(dir, KEEP_DIR, 'source.sm_90.cubin')));
    const plain = textSections(readFileSync(join(dir, 'plain.cubin')));
    expect([...kept.keys()].sort()).toEqual([...plain.keys()].sort());
    expect(kept.size).toBe(4);
    for (const [name, code] of plain) expect(kept.get(name)?.equals(code), name).toBe(true);
  }, 240_000);

  it('a cuda candidate compiled by the runner carries per-kernel resources, occupancy at its launch size, and its PTX', async () => {
    const dir = tmp();
    chmodSync(dir, 0o777);
    writeFileSync(join(dir, 'main.c'), 'int main(void) { return 0; }\n');
    execFileSync('cc', ['-c', 'main.c', '-o', 'main.o'], { cwd: dir });
    const tc = toolchainFor('cuda', '9.0');
    const source = `${fixture('./cuda/gemm.cu')}\n${fixture('./candidates/relu_good.cu').replace('#include <stdint.h>', '')}`;
    const compiled = await compileCandidate({
      jobDir: dir,
      language: 'cuda',
      source,
      toolchain: tc,
      workerObjects: ['main.o'],
    });
    expect(compiled.report.ok, compiled.report.log).toBe(true);
    // The log and the recorded flags are as before: ptxas's info lines are the facts', not the log's.
    expect(compiled.report.log).not.toMatch(/ptxas info/);
    expect(compiled.report.flags).toEqual([...tc.flags, ...tc.linkFlags]);
    expect(existsSync(join(dir, KEEP_DIR))).toBe(false);
    const facts = compiled.report.facts!;
    expect(facts.cuda?.arch).toBe('sm_90');
    const relu = facts.cuda!.kernels.find((k) => k.mangled === '_Z4reluPKfPfl')!;
    expect(relu.name).toBe('relu(float const*, float*, long)');
    expect(relu.occupancy).toHaveLength(1);
    expect(relu.occupancy[0]).toMatchObject({ block_size: 256, occupancy: 1 });
    expect(relu.occupancy[0]!.basis).toMatch(/launched with 256 threads per block in the source/);
    const gemm = facts.cuda!.kernels.find((k) => k.name.startsWith('kf_tiled_gemm'))!;
    expect(gemm.shared_bytes).toBe(2048);
    expect(gemm.occupancy[0]?.block_size).toBe(256);
    const cuobjdump = findCuobjdump(tc.binary);
    if (cuobjdump) expect(facts.cuda!.assembly_kind).toBe('sass');
    else {
      expect(facts.cuda!.assembly_kind).toBe('ptx');
      expect(facts.notes).toContain(NO_CUOBJDUMP);
      expect(facts.assembly).toMatch(/\.entry _Z4reluPKfPfl/);
      expect(facts.hot_loop?.function).toMatch(/kf_tiled_gemm/);
    }
    expect(facts.vectorization).toBeNull();
    expect(facts.counters.available).toBe(false);
    expect(facts.counters.reason).toMatch(/Nsight Compute/);
    expect(archOfFlags(tc.flags)).toBe('sm_90');
  }, 240_000);

  it("a kernel launched with a size computed at run time gets assumed sizes, each saying so; a compile error's log is nvcc's alone", async () => {
    const dir = tmp();
    chmodSync(dir, 0o777);
    writeFileSync(join(dir, 'main.c'), 'int main(void) { return 0; }\n');
    execFileSync('cc', ['-c', 'main.c', '-o', 'main.o'], { cwd: dir });
    const tc = toolchainFor('cuda', '9.0');
    const source = fixture('./candidates/relu_good.cu').replace('256>>>', '(int)(n % 7 + 1) * 32>>>');
    const compiled = await compileCandidate({
      jobDir: dir,
      language: 'cuda',
      source,
      toolchain: tc,
      workerObjects: ['main.o'],
    });
    const relu = compiled.report.facts!.cuda!.kernels[0]!;
    expect(relu.occupancy.map((o) => o.block_size)).toEqual([128, 256, 512, 1024]);
    for (const o of relu.occupancy)
      expect(o.basis).toMatch(/^assumed \d+ threads: the launch's block size is not a constant/);
    const broken = await compileCandidate({
      jobDir: dir,
      language: 'cuda',
      source: `${source}\n__global__ void bad(float* x) { x[0] = undefined_symbol; }\n`,
      toolchain: tc,
      workerObjects: ['main.o'],
    });
    expect(broken.report.ok).toBe(false);
    expect(broken.report.log).toMatch(/undefined_symbol/);
    expect(broken.report.log).not.toMatch(/ptxas info/);
    expect(broken.report.facts).toBeUndefined();
  }, 240_000);
});

describe('SASS where the runner has cuobjdump (a stand-in here)', () => {
  const LOG = [
    "ptxas info    : Compiling entry function '_Z4reluPKfPfl' for 'sm_90'",
    'ptxas info    : Function properties for _Z4reluPKfPfl',
    '    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads',
    'ptxas info    : Used 10 registers, used 0 barriers',
  ].join('\n');
  function standIn(dir: string, name: string, script: string): string {
    writeFileSync(join(dir, name), script);
    chmodSync(join(dir, name), 0o755);
    // The tool runs in the compile's sandbox, where the job folder is /w.
    return sandboxAvailable() ? `/w/${name}` : join(dir, name);
  }

  it('cuobjdump found: the assembly is its SASS, the hot loop marked in it, no note about cuobjdump', async () => {
    const dir = tmp();
    chmodSync(dir, 0o777);
    writeFileSync(join(dir, 'sass.txt'), SASS_SAMPLE);
    const cuobjdump = standIn(dir, 'cuobjdump', '#!/bin/sh\n[ "$1" = -sass ] && [ "$2" = worker ] && cat sass.txt\n');
    const facts = await gatherCudaFacts({
      jobDir: dir,
      log: LOG,
      source: fixture('./candidates/relu_good.cu'),
      flags: ['-O3', '-arch=sm_90'],
      binary: 'worker',
      cuobjdump,
    });
    expect(facts.cuda?.assembly_kind).toBe('sass');
    expect(facts.symbols).toEqual(['_Z4reluPKfPfl']);
    expect(facts.assembly).toContain('/*0030*/ FMNMX R3, RZ, R3, !PT ;');
    expect(facts.hot_loop).toMatchObject({ function: '_Z4reluPKfPfl', vector_bits: null });
    expect(facts.notes ?? []).not.toContain(NO_CUOBJDUMP);
    expect(facts.cuda?.kernels[0]).toMatchObject({ registers: 10, name: 'relu(float const*, float*, long)' });
  });

  it('cuobjdump failing: the reason in the notes, and no SASS claimed', async () => {
    const dir = tmp();
    chmodSync(dir, 0o777);
    const cuobjdump = standIn(dir, 'cuobjdump', '#!/bin/sh\necho "cuobjdump fatal   : no fatbin" >&2\nexit 1\n');
    const facts = await gatherCudaFacts({
      jobDir: dir,
      log: LOG,
      source: '',
      flags: ['-O3', '-arch=sm_90'],
      binary: 'worker',
      cuobjdump,
    });
    expect(facts.cuda?.assembly_kind).toBe('ptx');
    expect(facts.notes).toContain('no SASS: cuobjdump failed (cuobjdump fatal   : no fatbin); the assembly is the PTX');
    expect(facts.notes).toContain('no PTX: nvcc kept none');
    // No launch in the source: the assumed sizes.
    expect(facts.cuda?.kernels[0]?.occupancy.map((o) => o.block_size)).toEqual([128, 256, 512, 1024]);
  });
});

describe.skipIf(!hasNvcc)('an evaluation', () => {
  it('a cuda ReLU evaluated by the runner keeps its facts in the state, beside the verdict it would have without them', async () => {
    const h100: Device = {
      id: 'cuda-H100',
      kind: 'cuda',
      name: 'NVIDIA H100 80GB HBM3',
      peaks: { bandwidth_gbps: 3350, fp32_gflops: 67_000, source: 'table' },
      available: true,
      runners: 1,
      languages: ['cuda'],
    };
    const state = await evaluate(
      payload('19_ReLU', fixture('./candidates/relu_good.cu'), { language: 'cuda', device: 'cuda-H100' }),
      { problems: catalogue, device: h100, workDir, timing: 'quick', computeCapability: '9.0' },
    );
    expect(state.compile?.ok, state.compile?.log).toBe(true);
    // No GPU here: the worker cannot start (runtime_error), as in cuda.test.ts; on a GPU, accepted.
    expect(state.verdict, state.message).toBe(process.env.KFORGE_TEST_GPU ? 'accepted' : 'runtime_error');
    const relu = state.compile?.facts?.cuda?.kernels.find((k) => k.mangled === '_Z4reluPKfPfl');
    expect(relu?.registers).toBeGreaterThan(0);
    expect(relu?.occupancy[0]).toMatchObject({ block_size: 256, occupancy: 1, limiter: 'warps' });
    expect(state.compile?.log).not.toMatch(/ptxas info/);
    // On a GPU machine with cuobjdump, the assembly is SASS.
    if (process.env.KFORGE_TEST_GPU && findCuobjdump(toolchainFor('cuda', '9.0').binary)) {
      expect(state.compile?.facts?.cuda?.assembly_kind).toBe('sass');
      expect(state.compile?.facts?.assembly).toMatch(/Function : _Z4reluPKfPfl/);
    }
  }, 300_000);
});

// GPU machines only (KFORGE_TEST_GPU=1, ncu on the PATH dirs findNcu looks in): the prepared Nsight Compute run on a
// ReLU and a tiled matmul, read back from ncu's real CSV. Not yet run: this machine has no GPU.
describe.runIf(process.env.KFORGE_TEST_GPU && hasNvcc)('Nsight Compute on a GPU', () => {
  it('ncu reads DRAM and SM throughput, achieved occupancy and L2 hit rate of the ReLU and the matmul', async () => {
    const ncu = findNcu();
    expect(ncu, 'ncu is not on this GPU machine').not.toBeNull();
    const dir = tmp();
    writeFileSync(join(dir, 'relu.cu'), fixture('./candidates/relu_good.cu'));
    execFileSync(
      'nvcc',
      ['-O3', '-arch=native', 'relu.cu', fixtureFile('gemm.cu'), fixtureFile('ncu_driver.cu'), '-o', 'driver'],
      { cwd: dir, timeout: 180_000 },
    );
    const r = await runNcuProfile({ command: ['./driver'], kernels: ['relu', 'kf_tiled_gemm'], cwd: dir });
    expect(r.counters.available, r.counters.reason).toBe(true);
    expect(r.kernels.map((k) => k.name.split('(')[0]).sort()).toEqual(['kf_tiled_gemm', 'relu']);
    for (const k of r.kernels) {
      for (const m of ['dram_throughput_pct', 'sm_throughput_pct', 'achieved_occupancy_pct', 'duration_ns'] as const)
        expect(k.metrics[m], `${k.name} ${m}`).toBeGreaterThan(0);
      expect(k.metrics.l2_hit_rate_pct ?? 0).toBeGreaterThanOrEqual(0);
    }
    // A streaming ReLU moves memory; the matmul computes.
    const relu = r.kernels.find((k) => k.name.startsWith('relu'))!;
    const gemm = r.kernels.find((k) => k.name.startsWith('kf_tiled_gemm'))!;
    expect(relu.metrics.dram_throughput_pct!).toBeGreaterThan(relu.metrics.sm_throughput_pct!);
    expect(gemm.metrics.sm_throughput_pct!).toBeGreaterThan(gemm.metrics.dram_throughput_pct!);
    console.log(JSON.stringify(r.kernels, null, 1));
  }, 300_000);
});
