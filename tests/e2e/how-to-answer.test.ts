// Issue 35 item 6 in real Chromium against the real server: a pytorch problem's submit page teaches the answer: what
// to write, which PyTorch runs it (or that the device has none), the sizes the benchmark really uses, what is
// allowed, and a starting file per way of writing a kernel, which the editor takes. Each template is Python that
// parses, keeps the reference's class (renamed) and defines ModelNew.
import { execFileSync } from 'node:child_process';
import type { Problem } from '@kernelforge/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { torchTemplate } from '../../packages/web/src/lib/torchTemplates';
import { codeText, type Harness, openPage, sourceEditor, startHarness } from './harness';

let h: Harness;
let token = '';
let problem: Problem;

beforeAll(async () => {
  h = await startHarness();
  token = (await h.server.createUser({ password: 'how to answer password' })).token;
  const res = await h.server.request('/api/v1/problems/101_HardSigmoid', { token });
  expect(res.status).toBe(200);
  problem = (await res.json()) as Problem;
}, 240_000);

afterAll(async () => {
  await h?.close();
});

describe('how to answer a pytorch problem', () => {
  it('shows the panel, and its templates go into the editor', async () => {
    const { context, page } = await openPage(h, token);
    await page.goto('/kernels/submit?problem=101_HardSigmoid');
    const panel = page.getByTestId('how-to-answer');
    await panel.getByRole('heading', { name: 'How to answer' }).waitFor();
    const text = (await panel.textContent()) ?? '';
    expect(text).toContain('class ModelNew(nn.Module)');
    expect(text).toContain('copies the reference');
    expect(text).toContain('torch.utils.cpp_extension.load_inline');
    expect(text).toContain('Not allowed: work after forward returns');
    // Which PyTorch: the device's, or why there is none to say.
    expect(await panel.getByTestId('torch-version').textContent()).toMatch(
      /^(On \S+: PyTorch \S+|\S+'s runner has no PyTorch|Pick a device to see which PyTorch runs your answer\.)/,
    );
    // The file's 65536 against the benchmark's size, where inspection scaled it for cpu devices.
    const here = problem.torch?.sizes.cpu?.constants.dim;
    if (here !== undefined && here !== 65536) {
      expect(await panel.getByTestId('torch-scaled').textContent()).toContain(`dim = 65536 in the file, ${here} here`);
    }
    // The C++ template replaces the editor's file.
    await panel.getByRole('button', { name: 'C++ (load_inline)' }).click();
    const editor = await sourceEditor(page);
    await expect
      .poll(async () => (await codeText(editor)).split('\n').slice(0, 2).join('\n'))
      .toBe('import torch\nfrom torch.utils.cpp_extension import load_inline');
    // Back to PyTorch operators: the reference renamed ModelNew, as before.
    await panel.getByRole('button', { name: 'PyTorch operators' }).click();
    await expect.poll(async () => (await codeText(editor)).includes('class ModelNew(nn.Module)')).toBe(true);
    await context.close();
  });

  it('gives templates that parse as Python, extend the reference and define ModelNew', () => {
    const reference = problem.reference_source ?? '';
    expect(reference).toContain('class Model(');
    for (const kind of ['pytorch', 'cpp', 'cuda', 'triton'] as const) {
      const source = torchTemplate(kind, reference);
      // Parsed by this machine's Python (no PyTorch needed to parse).
      execFileSync('python3', ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], { input: source });
      expect(source, kind).toMatch(/^class ModelNew\(/m);
      if (kind !== 'pytorch') {
        expect(source, kind).toContain('class KfReference(nn.Module)');
        expect(source, kind).toContain('class ModelNew(KfReference)');
        expect(source, kind).not.toMatch(/^class Model\(/m);
      }
    }
  });
});
