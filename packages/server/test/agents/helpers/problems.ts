// sdk Problem objects for tests, from problems/<name>/problem.json when the runner has written it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuInfo } from '@kernelforge/runner';
import type { Device, Problem } from '@kernelforge/sdk';

export const PROBLEMS_DIR = join(import.meta.dirname, '..', '..', '..', '..', '..', 'problems');

const FALLBACK: Record<string, Pick<Problem, 'signature' | 'prototype' | 'cost'>> = {
  '19_ReLU': {
    prototype: 'void solution(const float* x, float* y, int64_t n)',
    signature: [
      { name: 'x', type: 'f32*', role: 'in', shape: ['n'] },
      { name: 'y', type: 'f32*', role: 'out', shape: ['n'] },
      { name: 'n', type: 'i64', role: 'size' },
    ],
    cost: { flops: 'n', bytes: '8*n' },
  },
  '1_Square_matrix_multiplication_': {
    prototype: 'void solution(const float* A, const float* B, float* C, int64_t n)',
    signature: [
      { name: 'A', type: 'f32*', role: 'in', shape: ['n', 'n'] },
      { name: 'B', type: 'f32*', role: 'in', shape: ['n', 'n'] },
      { name: 'C', type: 'f32*', role: 'out', shape: ['n', 'n'] },
      { name: 'n', type: 'i64', role: 'size' },
    ],
    cost: { flops: '2*n*n*n', bytes: '12*n*n' },
  },
};

export function problem(name: string, extra: Partial<Problem> = {}): Problem {
  const file = join(PROBLEMS_DIR, name, 'problem.json');
  const json = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<Problem>) : {};
  const ref = join(PROBLEMS_DIR, name, 'reference.c');
  const fb = FALLBACK[name];
  return {
    name,
    title: json.title ?? name,
    level: json.level ?? 1,
    description: json.description ?? `${name} test problem`,
    signature: json.signature ?? fb?.signature ?? [],
    prototype: json.prototype ?? fb?.prototype ?? 'void solution(void)',
    cases: json.cases ?? {
      test: [{ name: 'small', sizes: { n: 17 } }],
      benchmark: [{ name: 'big', sizes: { n: 1024 } }],
    },
    distributions: ['uniform'],
    tolerance: json.tolerance ?? { atol: 1e-4, rtol: 1e-4 },
    cost: json.cost ?? fb?.cost ?? { flops: '0', bytes: '0' },
    backends: ['cpu'],
    languages: ['c', 'cpp'],
    reference_source: existsSync(ref) ? readFileSync(ref, 'utf8') : 'void reference(void) {}',
    custom: false,
    ...extra,
  };
}

/** The machine the tests run on, with the ISA, registers and caches its runner would report (peaks made up). */
export const CPU: Device = {
  id: 'cpu-x86_64',
  kind: 'cpu',
  name: 'this machine',
  cores: 2,
  peaks: { bandwidth_gbps: 90, fp32_gflops: 600, source: 'measured' },
  available: true,
  runners: 1,
  languages: ['c', 'cpp'],
  cpu: cpuInfo(),
};
