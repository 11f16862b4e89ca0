// Shared set-up of the runner's tests: the real catalogue, the measured cpu device, a private work dir.
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Device, EvaluationJobPayload, EvaluationState, Language } from '@kernelforge/sdk';
import { discoverDevices, evaluate, loadCatalogue, type TimingRules } from '../src/index.js';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const catalogue = loadCatalogue(join(repoRoot, 'problems'));
export const workDir = join(tmpdir(), `kforge-runner-test-${process.pid}`);
mkdirSync(workDir, { recursive: true });

let cpu: Device | undefined;
export function cpuDevice(): Device {
  cpu ??= discoverDevices({ workDir }).find((d) => d.kind === 'cpu') as Device;
  return cpu;
}

export const fixture = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');

export function payload(
  problem: string,
  source: string,
  extra: Partial<EvaluationJobPayload> = {},
): EvaluationJobPayload {
  return {
    kind: 'attempt',
    target_id: 't1',
    mode: 'benchmark',
    problem_name: problem,
    device: 'cpu-x86_64',
    language: 'c' as Language,
    source,
    ...extra,
  };
}

export function run(
  problem: string,
  source: string,
  extra: Partial<EvaluationJobPayload> = {},
  timing: 'quick' | 'default' | TimingRules = 'quick',
): Promise<EvaluationState> {
  return evaluate(payload(problem, source, extra), { problems: catalogue, device: cpuDevice(), workDir, timing });
}

/** The problem's own reference, renamed to be a candidate. */
export function referenceAsCandidate(problem: string): string {
  const p = catalogue.get(problem);
  if (!p) throw new Error(`no problem ${problem}`);
  return p.reference_c.replace(/\breference\s*\(/, 'solution(');
}
