// @vitest-environment happy-dom
// The web faces of pytorch (KernelBench) problems: the ModelNew template, PyTorch as the only language, devices
// without PyTorch refused, shapes and scaling, sizes used and the compiled baseline, Python highlighting.
import type { Device, EvaluationState, Problem } from '@kernelforge/sdk';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, jwt, renderApp, settings, user } from './helpers';

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('access_token', jwt(3600));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The CodeMirror view labelled `label` (by aria-label or, for the editor, its labelling text), once it has loaded. */
async function codeView(label: string | RegExp, within_: HTMLElement = document.body): Promise<HTMLElement> {
  return waitFor(() => {
    const el = within(within_).getByLabelText(label);
    expect(el.classList.contains('cm-content')).toBe(true);
    return el;
  });
}
/** Its text, line by line. */
const text = (content: HTMLElement) => [...content.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\n');
const languageOf = (content: HTMLElement) => content.closest('.cm-editor')?.getAttribute('data-language');

const REFERENCE = `import torch
import torch.nn as nn


class Model(nn.Module):
    """
    Applies HardSigmoid elementwise: clamp(x / 6 + 1 / 2, 0, 1).
    """

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.hardsigmoid(x)


batch_size = 4096
dim = 65536


def get_inputs():
    x = torch.randn(batch_size, dim) * 4
    return [x]


def get_init_inputs():
    return []  # no parameters
`;

const tensor = (shape: number[]) => ({ type: 'tensor', shape, dtype: 'float32' });

const hardSigmoid: Problem = {
  name: '101_HardSigmoid',
  title: 'HardSigmoid',
  level: 1,
  description: 'Applies HardSigmoid elementwise: clamp(x / 6 + 1 / 2, 0, 1).',
  signature: [],
  prototype: '',
  cases: { test: [], benchmark: [] },
  distributions: [],
  tolerance: { atol: 1e-5, rtol: 1e-5 },
  cost: { flops: '0', bytes: '0' },
  backends: ['cpu', 'cuda'],
  languages: ['pytorch'],
  reference_source: REFERENCE,
  custom: false,
  kind: 'pytorch',
  torch: {
    constants: { batch_size: 4096, dim: 65536 },
    scalable_constants: ['batch_size', 'dim'],
    scalable: true,
    scaling_note: 'scaled by halving batch_size, dim until inputs, outputs and parameters fit',
    sizes: {
      cpu: {
        budget_bytes: 64 * 2 ** 20,
        constants: { batch_size: 512, dim: 16384 },
        test: [],
        benchmark: [
          {
            name: 'bench',
            constants: { batch_size: 512, dim: 16384 },
            inputs: [tensor([512, 16384])],
            init_inputs: [],
            outputs: [tensor([512, 16384])],
            bytes: 67108864,
          },
        ],
        fits: true,
      },
      cuda: {
        budget_bytes: 1024 * 2 ** 20,
        constants: { batch_size: 4096, dim: 65536 },
        test: [],
        benchmark: [
          {
            name: 'bench',
            constants: { batch_size: 4096, dim: 65536 },
            inputs: [tensor([4096, 65536])],
            init_inputs: [],
            outputs: [tensor([4096, 65536])],
            bytes: 2147483648,
          },
        ],
        fits: true,
      },
    },
    origin: 'builtin',
    sha256: 'abc',
  },
};

const relu: Problem = {
  ...hardSigmoid,
  name: '19_ReLU',
  title: 'ReLU',
  description: 'y = max(x, 0)',
  prototype: 'void solution(const float* x, float* y, int64_t n)',
  languages: ['c', 'cpp', 'cuda'],
  reference_source: 'void reference(const float* x, float* y, int64_t n) {}',
  kind: 'c',
};
delete relu.torch;

const peaks = { bandwidth_gbps: 20, fp32_gflops: 15, source: 'measured' } as const;
const cpu: Device = {
  id: 'cpu-x86_64',
  kind: 'cpu',
  name: 'AMD EPYC',
  available: true,
  runners: 1,
  languages: ['c', 'cpp'],
  peaks,
  toolchains: { python: '3.11.2', torch: '1.13.1', cxx: 'g++ 12.2.0' },
};
const gpu: Device = {
  id: 'cuda-H100',
  kind: 'cuda',
  name: 'H100',
  available: true,
  runners: 1,
  languages: ['cuda'],
  peaks,
  toolchains: { cuda: '13.0' },
  unavailable: [{ kind: 'pytorch', reason: "the torch backend's CUDA path is not built yet" }],
};

function catalogueApi(extra: Record<string, { body: unknown }> = {}) {
  return fakeApi({
    'GET /api/v1/settings': { body: settings },
    'GET /auth/users/me': { body: user },
    'GET /api/v1/problems': { body: { data: [relu, hardSigmoid], count: 2 } },
    'GET /api/v1/problems/101_HardSigmoid': { body: hardSigmoid },
    'GET /api/v1/devices': { body: { data: [cpu, gpu], count: 2 } },
    'GET /api/v1/submission': { body: { data: [], count: 0 } },
    'GET /api/v1/agent-session': { body: { data: [], count: 0 } },
    ...extra,
  });
}

describe('the submit page on a pytorch problem', () => {
  it('offers PyTorch as the only language and starts the editor from the reference renamed ModelNew', async () => {
    catalogueApi();
    renderApp('/kernels/submit?problem=101_HardSigmoid');
    const editor = await codeView(/^Source/);
    await waitFor(() => expect(text(editor)).toContain('class ModelNew(nn.Module):'));
    expect(text(editor)).toContain('super(ModelNew, self).__init__()');
    expect(text(editor)).not.toMatch(/class Model\(/);
    expect(text(editor)).toContain('def get_inputs():');
    const language = screen.getByLabelText('Language') as HTMLSelectElement;
    expect(
      within(language)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['PyTorch']);
    expect(language.value).toBe('pytorch');
    // The editor highlights it as Python.
    expect(languageOf(editor)).toBe('pytorch');
    expect(editor.querySelector('.tok-keyword')?.textContent).toBe('import');
  });

  it('refuses a device that cannot run pytorch problems, with its reason, and picks one that can', async () => {
    catalogueApi();
    renderApp('/kernels/submit?problem=101_HardSigmoid');
    const device = (await screen.findByLabelText('Device')) as HTMLSelectElement;
    await waitFor(() => expect(device.value).toBe('cpu-x86_64'));
    const h100 = within(device).getByRole('option', { name: /H100/ }) as HTMLOptionElement;
    expect(h100.disabled).toBe(true);
    expect(h100.textContent).toContain("cannot run this problem: the torch backend's CUDA path is not built yet");
    expect(screen.getByTestId('devices-refused').textContent).toContain('cuda-H100');
  });

  it('shows the PyTorch badge, the level, the input shapes on the chosen device and the scaling note', async () => {
    catalogueApi();
    renderApp('/kernels/submit?problem=101_HardSigmoid');
    const summary = await screen.findByTestId('problem-summary');
    expect(within(summary).getByTestId('problem-kind').textContent).toBe('PyTorchLevel 1');
    await waitFor(() => expect(within(summary).getByTestId('torch-shapes').textContent).toContain('cpu'));
    const shapes = within(summary).getByTestId('torch-shapes').textContent ?? '';
    expect(shapes).toContain('float32[512, 16384]');
    expect(shapes).toContain('batch_size = 512, dim = 16384');
    expect(within(summary).getByTestId('scaling-note').textContent).toContain(
      'scaled by halving batch_size, dim until inputs, outputs and parameters fit',
    );
    // Folded on this page (the editor holds it as ModelNew): its code view is made when it opens.
    expect(within(summary).queryByLabelText('Reference source')).toBeNull();
    const folded = within(summary).getByText('Reference (KernelBench)').closest('details') as HTMLDetailsElement;
    folded.open = true;
    fireEvent(folded, new Event('toggle'));
    expect(languageOf(await codeView('Reference source', summary))).toBe('pytorch');
  });

  it('a C problem beside it keeps its C languages, C skeleton and C highlighting', async () => {
    catalogueApi();
    renderApp('/kernels/submit?problem=19_ReLU');
    const editor = await codeView(/^Source/);
    await waitFor(() => expect(text(editor)).toContain('void solution('));
    const language = screen.getByLabelText('Language') as HTMLSelectElement;
    expect(
      within(language)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['C', 'C++']);
    expect(languageOf(editor)).toBe('c');
    expect(editor.querySelector('.tok-type')?.textContent).toBe('void');
    expect(screen.queryByTestId('torch-shapes')).toBeNull();
    expect(
      (within(screen.getByLabelText('Device')).getByRole('option', { name: /H100/ }) as HTMLOptionElement).disabled,
    ).toBe(false);
  });
});

describe('the new-kernel page on a pytorch problem', () => {
  it('shows the kind, level, shapes and the reference highlighted as Python, and PyTorch as the language', async () => {
    catalogueApi();
    renderApp('/kernels/generate-kernel');
    fireEvent.click(await screen.findByRole('radio', { name: /HardSigmoid/ }));
    const summary = await screen.findByTestId('problem-summary');
    expect(within(summary).getByTestId('problem-kind').textContent).toContain('PyTorch');
    await waitFor(() =>
      expect(within(summary).getByTestId('torch-shapes').textContent).toContain('float32[512, 16384]'),
    );
    const reference = await codeView('Reference source', summary);
    expect(languageOf(reference)).toBe('pytorch');
    expect([...reference.querySelectorAll('.tok-keyword')].map((t) => t.textContent)).toContain('class');
    expect(reference.querySelector('.tok-string')?.textContent).toMatch(/^"""/);
    expect(screen.getByTestId('session-language').textContent).toContain('PyTorch');
    expect(
      (within(screen.getByLabelText('Device')).getByRole('option', { name: /H100/ }) as HTMLOptionElement).disabled,
    ).toBe(true);
  });
});

describe('the leaderboard of a pytorch problem', () => {
  it('heads the board with the kind, level, cpu shapes and the reference', async () => {
    catalogueApi({
      'GET /api/v1/leaderboard/101_HardSigmoid': {
        body: { problem_name: '101_HardSigmoid', title: 'HardSigmoid', entries: [], count: 0 },
      },
    });
    renderApp('/leaderboard/101_HardSigmoid');
    expect(await screen.findByRole('heading', { name: 'Problem: 101 HardSigmoid' })).toBeTruthy();
    const summary = await screen.findByTestId('problem-summary');
    expect(within(summary).getByTestId('problem-kind').textContent).toBe('PyTorchLevel 1');
    expect(within(summary).getByTestId('torch-shapes').textContent).toContain('float32[512, 16384]');
    // Folded: no code view (and no CodeMirror download) until it opens.
    expect(within(summary).queryByLabelText('Reference source')).toBeNull();
    const folded = within(summary).getByText('Reference (KernelBench)').closest('details') as HTMLDetailsElement;
    folded.open = true;
    fireEvent(folded, new Event('toggle'));
    expect(languageOf(await codeView('Reference source', summary))).toBe('pytorch');
  });
});

const torchState: EvaluationState = {
  verdict: 'accepted',
  mode: 'benchmark',
  message: 'accepted: 1.8x faster than the reference',
  compile: null,
  correctness: null,
  benchmarking_result: {
    optimized_time: 2,
    baseline_time: 3.6,
    speedup: 1.8,
    gbps: 60,
    gflops: 1,
    fraction_of_peak: 0.5,
    cases: [],
    flagged_for_review: false,
    review_reasons: [],
    compiled_baseline_time: 3,
    speedup_over_compiled: 1.5,
    compiled_baseline: 'TorchScript freeze',
  },
  environment: {
    device_id: 'cpu-x86_64',
    device_name: 'AMD EPYC',
    compiler: 'g++',
    flags: ['-O3'],
    sandbox: 'bwrap',
    toolchains: { python: '3.11.2', torch: '1.13.1' },
  },
  runner_seconds: 4,
  evaluated_at: '2026-01-01T00:00:00Z',
  sizes_used: { batch_size: 512, dim: 16384 },
};

describe('pytorch results', () => {
  it('an attempt shows the sizes used, the compiled baseline, the toolchains and its source as Python', async () => {
    const attempt = {
      id: 'a1',
      session_id: 's1',
      instruction_id: null,
      attempt_number: 1,
      status: 'completed',
      language: 'pytorch',
      source: '@torch.jit.script\ndef f(x):\n    return x  # same\n',
      explanation: null,
      evaluation_state: torchState,
      created_at: '2026-01-01T00:00:00Z',
      finished_at: null,
    };
    catalogueApi({
      'GET /api/v1/agent-session/s1': {
        body: {
          id: 's1',
          owner_id: 'u1',
          problem_name: '101_HardSigmoid',
          name: 'hs',
          label: 'hs',
          device: 'cpu-x86_64',
          status: 'idle',
          agent: { provider: 'tuner', model: null },
          created_at: '2026-01-01T00:00:00Z',
          updated_at: '2026-01-01T00:00:00Z',
          deleted_at: null,
          best_attempt: null,
          generation_attempts: [attempt],
          user_instructions: [],
        },
      },
      'GET /api/v1/agent-session/s1/events': { body: '' },
    });
    renderApp('/kernels/s1/attempts/a1');
    expect(await screen.findByRole('heading', { name: 'Attempt #1' })).toBeTruthy();
    expect(screen.getByTestId('sizes-used').textContent).toBe('batch_size = 512, dim = 16384');
    expect(screen.getByTestId('compiled-baseline').textContent).toBe(
      'TorchScript freeze: 3.000 ms · speedup over it 1.50×',
    );
    expect(screen.getByTestId('toolchains').textContent).toBe('python 3.11.2 · torch 1.13.1');
    const source = await codeView('Source of attempt #1');
    expect(languageOf(source)).toBe('pytorch');
    expect([...source.querySelectorAll('.tok-decorator')].map((t) => t.textContent).join('')).toBe('@torchjitscript');
    expect(source.querySelector('.tok-comment')?.textContent).toBe('# same');
    // No flop count for a module: GFLOP/s unknown, not zero; GB/s from its tensors.
    const figures = screen.getByTestId('figures');
    expect(within(figures).getByText('GFLOP/s').nextElementSibling?.textContent).toBe('—');
    expect(within(figures).getByText('GB/s').nextElementSibling?.textContent).toBe('60.0');
  });

  it('a submission says why there was no compiled baseline', async () => {
    const {
      compiled_baseline_time: _t,
      speedup_over_compiled: _s,
      compiled_baseline: _n,
      ...bench
    } = torchState.benchmarking_result ?? ({} as never);
    catalogueApi({
      'GET /api/v1/leaderboard/submission/sub1': {
        body: {
          id: '5b0c8f7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f',
          user: { id: '7806acb7-816e-4d91-835b-3b79be97e4c4', full_name: null, display_name: 'me' },
          problem_name: '101_HardSigmoid',
          device: 'cpu-x86_64',
          language: 'pytorch',
          source: 'class ModelNew(nn.Module):\n    pass\n',
          status: 'completed',
          verdict: 'accepted',
          time_ms: 2,
          speedup: 1.8,
          evaluation_state: {
            ...torchState,
            benchmarking_result: {
              ...bench,
              compiled_baseline_time: null,
              compiled_note: 'TorchScript freeze failed: unsupported op',
            },
          },
          created_at: '2026-01-01T00:00:00Z',
          finished_at: '2026-01-01T00:00:01Z',
          rank: 1,
        },
      },
    });
    renderApp('/leaderboard/submission/sub1');
    expect(await screen.findByTestId('sizes-used')).toBeTruthy();
    expect(screen.getByTestId('sizes-used').textContent).toBe('batch_size = 512, dim = 16384');
    expect(screen.getByTestId('compiled-baseline').textContent).toBe(
      'not compiledTorchScript freeze failed: unsupported op',
    );
    expect(screen.getByTestId('submission-summary').parentElement?.textContent).toContain('PyTorch');
    const source = await codeView('Submitted source');
    expect(languageOf(source)).toBe('pytorch');
    expect(source.querySelector('.tok-keyword')?.textContent).toBe('class');
  });
});
