// The CLI on pytorch problems against the real server and its in-process runner: `problems show` with the sizes
// as written and as scaled, `submit` of a ModelNew .py (and clear refusals of a mismatched language), and
// `sessions start` with the tuner.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentSession, Problem, SubmissionDetail } from '@kernelforge/sdk';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildCli, isolatedHome, kforge, type RunOptions } from './helpers/cli.js';
import { createApiToken, startTestServer, type TestServer } from './helpers/server.js';

// The runner's own check lives in a package the CLI may not import: ask the interpreter it uses.
const hasTorch =
  spawnSync(process.env.KFORGE_PYTHON ?? '/usr/bin/python3', ['-c', 'import torch'], { stdio: 'ignore' }).status === 0;

const MODEL_NEW = `import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.nn.functional.hardsigmoid(x)
`;

let server: TestServer;
let home: { HOME: string; XDG_CONFIG_HOME: string };
const dir = mkdtempSync(join(tmpdir(), 'kforge-cli-torch-'));
const signedIn = (): RunOptions => ({ env: { ...home, KFORGE_TELEMETRY: '0', KFORGE_POLL_MS: '300' } });

beforeAll(async () => {
  if (!hasTorch) return;
  await buildCli();
  server = await startTestServer({ localRunner: true, env: { KFORGE_TORCH_BUDGET_MB: '16' } });
  const { token } = await server.createUser({ email: 'torch-cli@kforge.test' });
  home = isolatedHome();
  const login = await kforge(
    ['login', '--token', await createApiToken(server, token), '--api-url', server.url],
    signedIn(),
  );
  expect(login.code, login.stderr).toBe(0);
  writeFileSync(join(dir, 'model_new.py'), MODEL_NEW);
  writeFileSync(join(dir, 'relu.c'), 'void solution(void) {}\n');
}, 600_000);
afterAll(() => server?.stop());

describe.skipIf(!hasTorch)('kforge on pytorch problems', () => {
  test('problems show prints the kind, level, constants as written and as scaled, input shapes and the source', async () => {
    const r = await kforge(['problems', 'show', '201_Gemm_GELU_Scale'], signedIn());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Kind:\s+pytorch/);
    expect(r.stdout).toMatch(/Level:\s+2/);
    expect(r.stdout).toMatch(/Constants:\s+batch_size=512, in_features=2048, out_features=2048 \(as written\)/);
    // A 16 MiB budget scales the GEMM down on cpu.
    expect(r.stdout).toMatch(/On cpu:\s+\S*=\d+.*\(budget 16 MiB\)/);
    expect(r.stdout).toMatch(/inputs:\s+float32\[\d+, \d+\]/);
    expect(r.stdout).toContain('class Model(nn.Module):');
    expect(r.stdout).toContain('def get_init_inputs():');
    expect(r.stderr).toContain('kforge submit 201_Gemm_GELU_Scale model_new.py');

    const json = await kforge(['problems', 'show', '201_Gemm_GELU_Scale', '--json'], signedIn());
    const problem = Problem.parse(json.json());
    expect(problem.kind).toBe('pytorch');
    expect(problem.torch?.sizes.cpu?.benchmark[0]?.inputs[0]?.shape?.length).toBe(2);
  });

  test('submit infers pytorch from .py and the ModelNew file is accepted', async () => {
    const r = await kforge(
      ['submit', '101_HardSigmoid', join(dir, 'model_new.py'), '--wait', '--json', '--timeout', '800'],
      { ...signedIn(), timeoutMs: 850_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    const done = SubmissionDetail.parse(r.json());
    expect(done.language).toBe('pytorch');
    expect(done.evaluation_state?.verdict).toBe('accepted');
    expect(done.evaluation_state?.sizes_used).toBeTruthy();
  }, 900_000);

  test('submit refuses a .c file on a pytorch problem and a .py file on a C-ABI problem, saying what to do', async () => {
    const c = await kforge(['submit', '101_HardSigmoid', join(dir, 'relu.c')], signedIn());
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('101_HardSigmoid is a PyTorch problem: it takes a Python file defining class ModelNew');
    expect(c.stderr).toContain('kforge problems show 101_HardSigmoid --reference > model_new.py');
    const py = await kforge(['submit', '19_ReLU', join(dir, 'model_new.py')], signedIn());
    expect(py.code).toBe(2);
    expect(py.stderr).toContain('19_ReLU is a C-ABI problem: a Python (pytorch) file cannot solve it');
  });

  test('sessions start runs the tuner on a pytorch problem to measured ModelNew attempts', async () => {
    const r = await kforge(
      ['sessions', 'start', '104_Mean_reduction_over_a_dimension', '-n', '2', '--watch', '--json'],
      { ...signedIn(), timeoutMs: 850_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    const session = AgentSession.parse(r.json());
    expect(session.problem_name).toBe('104_Mean_reduction_over_a_dimension');
    expect(session.generation_attempts).toHaveLength(2);
    for (const a of session.generation_attempts) {
      expect(a.language).toBe('pytorch');
      expect(a.source).toContain('class ModelNew(KfReference)');
      expect(a.evaluation_state?.verdict, a.evaluation_state?.message).toBe('accepted');
    }
  }, 900_000);
});
