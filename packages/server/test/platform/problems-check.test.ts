// `kforge-server problems check` as a real process (issue 18): it warns, without failing, when a reference's
// outputs on its seeded test inputs are near-constant or near zero (all-zero outputs would pass the tolerance).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { torchToolchain } from '@kernelforge/runner';
import { afterAll, describe, expect, test } from 'vitest';
import { runServerCommand } from '../helpers/process.js';

const hasTorch = torchToolchain().ok;
const dir = mkdtempSync(join(tmpdir(), 'kforge-problems-check-'));

const problem = (forward: string) => `import torch
import torch.nn as nn

class Model(nn.Module):
    """A tiny problem for problems check."""
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ${forward}

batch_size = 64
dim = 256

def get_inputs():
    return [torch.randn(batch_size, dim)]

def get_init_inputs():
    return []
`;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!hasTorch)('kforge-server problems check', () => {
  mkdirSync(join(dir, 'level1'));
  writeFileSync(join(dir, 'level1', '1_Normal_ReLU.py'), problem('torch.relu(x)'));
  writeFileSync(join(dir, 'level1', '2_Constant.py'), problem('x * 0 + 1e-7'));
  writeFileSync(join(dir, 'level1', '3_Tiny.py'), problem('x * 1e-7'));
  const env = { KFORGE_TORCH_BUDGET_MB: '4', KFORGE_TORCH_CUDA_BUDGET_MB: '4' };

  test('near-constant and near-zero reference outputs are warned about; a normal one is not; the exit code stays 0', async () => {
    const r = await runServerCommand(['problems', 'check', dir], env);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const warns = r.stdout.split('\n').filter((l) => l.startsWith('warn  '));
    const of = (stem: string) => warns.filter((l) => l.includes(`/${stem}.py: `));
    expect(of('1_Normal_ReLU')).toEqual([]);
    expect(of('2_Constant').join('\n')).toMatch(/near-constant at test size test\d \(mean 1e-7, std 0\)/);
    expect(of('2_Constant').join('\n')).toMatch(
      /near zero .*\(RMS 1e-7, under atol 0\.0001\): all-zero outputs would pass/,
    );
    expect(of('3_Tiny').join('\n')).toMatch(/near zero/);
    expect(of('3_Tiny').join('\n')).not.toMatch(/near-constant/);
    expect(r.stdout).toContain('3 loaded, 0 failed, 2 warned');
  });

  test('--json carries the warnings in a warnings array', async () => {
    const r = await runServerCommand(['problems', 'check', dir, '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      ok: unknown[];
      errors: unknown[];
      warnings: Array<{ file: string; warning: string }>;
    };
    expect(out.ok).toHaveLength(3);
    expect(out.errors).toEqual([]);
    const files = new Set(out.warnings.map((w) => w.file.split('/').pop()));
    expect([...files].sort()).toEqual(['2_Constant.py', '3_Tiny.py']);
    expect(out.warnings.every((w) => typeof w.warning === 'string' && w.warning.length > 0)).toBe(true);
  });
});
