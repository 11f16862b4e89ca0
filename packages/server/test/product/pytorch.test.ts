// PyTorch problems through the API (issue 13): the catalogue lists the built-in KernelBench-format files and an
// operator's folder (KFORGE_PROBLEM_DIRS, with the name-collision rule), and a submission with language pytorch
// is evaluated for real by the in-process runner: the reference renamed to ModelNew is accepted, a wrong one not.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { torchToolchain } from '@kernelforge/runner';
import type { Problem, SubmissionDetail } from '@kernelforge/sdk';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TestServer, TestUser } from '../helpers/server.js';
import { CPU, json, registerRunner, startProductServer, waitFor } from './helpers.js';

const hasTorch = torchToolchain().ok;
const operator = mkdtempSync(join(tmpdir(), 'kforge-operator-problems-'));
// Written as KernelBench writes its files, by none of this catalogue's problems' authors' hands.
const RELU = `import torch
import torch.nn as nn

class Model(nn.Module):
    """
    Simple model that performs a ReLU activation.
    """
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x)

batch_size = 16
dim = 16384

def get_inputs():
    x = torch.randn(batch_size, dim)
    return [x]

def get_init_inputs():
    return []
`;

let server: TestServer;
let user: TestUser;
let device = '';

beforeAll(async () => {
  if (!hasTorch) return;
  mkdirSync(join(operator, 'level1'), { recursive: true });
  writeFileSync(join(operator, 'level1', '19_ReLU.py'), RELU);
  writeFileSync(join(operator, 'level1', '7_Broken.py'), 'raise SystemExit("no")\n');
  server = await startProductServer({
    localRunner: true,
    env: { KFORGE_PROBLEM_DIRS: operator, KFORGE_TORCH_BUDGET_MB: '16' },
  });
  user = await server.createUser();
  const devices = await json<{ data: Array<{ id: string; kind: string }> }>(
    server.request('/api/v1/devices', { token: user.token }),
  );
  device = devices.body.data.find((d) => d.kind === 'cpu')?.id ?? '';
}, 600_000);
afterAll(() => server?.stop());

// biome-ignore lint/suspicious/noExplicitAny: response bodies of several shapes, checked field by field
type Body = any;
const req = (path: string, init: Parameters<TestServer['request']>[1] = {}) =>
  json<Body>(server.request(`/api/v1${path}`, { token: user.token, ...init }));

async function submit(problem: string, source: string, language = 'pytorch') {
  return req('/submission', { method: 'POST', json: { problem_name: problem, device, language, source } });
}

async function verdictOf(id: string): Promise<SubmissionDetail> {
  return waitFor(
    async () => {
      const r = await req(`/leaderboard/submission/${id}`);
      return r.body?.evaluation_state?.verdict || r.body?.status === 'failed'
        ? (r.body as SubmissionDetail)
        : undefined;
    },
    { timeoutMs: 400_000, intervalMs: 500, what: `submission ${id} to be evaluated` },
  );
}

describe.skipIf(!hasTorch)('pytorch problems through the API', () => {
  test('the catalogue lists them with their kind, sizes and reference; C-ABI names win', async () => {
    const { body } = await req('/problems');
    const byName = new Map<string, Problem>(body.data.map((p: Problem) => [p.name, p]));
    const hs = byName.get('101_HardSigmoid');
    expect(hs?.kind).toBe('pytorch');
    expect(hs?.languages).toEqual(['pytorch']);
    expect(hs?.reference_source).toContain('class Model(nn.Module)');
    expect(hs?.torch?.sizes.cpu?.benchmark[0]?.inputs[0]).toMatchObject({ type: 'tensor', dtype: 'float32' });
    expect(byName.get('19_ReLU')?.kind).toBe('c');
    expect(byName.get('19_ReLU__torch')?.torch?.origin).toBe('operator');
    expect(byName.has('7_Broken')).toBe(false);
    for (const level of [1, 2, 3])
      expect(body.data.some((p: Problem) => p.kind === 'pytorch' && p.level === level)).toBe(true);
  });

  test('on a cuda device (issue 33): accepted where its runner can run PyTorch there, else a 422 with the reason', async () => {
    const gpu = (id: string, unavailable?: Array<{ kind: string; reason: string }>) => ({
      ...CPU,
      id,
      kind: 'cuda' as const,
      name: 'NVIDIA H100 80GB HBM3',
      languages: ['cuda', 'pytorch'],
      ...(unavailable ? { unavailable } : {}),
    });
    await registerRunner(server, [
      gpu('cuda-H100-torch'),
      gpu('cuda-H100-notorch', [{ kind: 'pytorch', reason: "this runner's PyTorch (1.13.0) is built without CUDA" }]),
    ]);
    const source = 'import torch\nclass ModelNew(torch.nn.Module):\n    def forward(self, x):\n        return x\n';
    const post = (dev: string) =>
      req('/submission', {
        method: 'POST',
        json: { problem_name: '101_HardSigmoid', device: dev, language: 'pytorch', source },
      });
    const refused = await post('cuda-H100-notorch');
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain('built without CUDA');
    const ok = await post('cuda-H100-torch');
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  test('a C source on a pytorch problem is refused', async () => {
    const r = await submit('101_HardSigmoid', 'void solution(void) {}', 'c');
    expect(r.status).toBe(422);
  });

  test('the reference renamed to ModelNew is accepted (an operator file and a built-in level-2 file); a wrong one is not', async () => {
    const problems = (await req('/problems')).body.data as Problem[];
    const source = (name: string) =>
      (problems.find((p) => p.name === name)?.reference_source ?? '').replace(/\bModel\b/g, 'ModelNew');
    const relu = await submit('19_ReLU__torch', source('19_ReLU__torch'));
    expect(relu.status, JSON.stringify(relu.body)).toBe(201);
    const gemm = await submit('204_Matmul_Sum_Max_LeakyReLU', source('204_Matmul_Sum_Max_LeakyReLU'));
    const wrong = await submit(
      '19_ReLU__torch',
      source('19_ReLU__torch').replace('torch.relu(x)', 'torch.relu(x) * 0.5'),
    );
    for (const [s, want] of [
      [relu, 'accepted'],
      [gemm, 'accepted'],
      [wrong, 'incorrect'],
    ] as const) {
      const done = await verdictOf(s.body.id);
      expect(done.evaluation_state?.verdict, done.evaluation_state?.message).toBe(want);
      expect(done.evaluation_state?.sizes_used).toBeTruthy();
      if (want === 'accepted') expect(done.evaluation_state?.benchmarking_result?.optimized_time).toBeGreaterThan(0);
    }
    const board = await req(`/leaderboard/19_ReLU__torch?device=${device}`);
    expect(board.status).toBe(200);
    expect(board.body.entries.length).toBe(1);
  }, 900_000);
});
