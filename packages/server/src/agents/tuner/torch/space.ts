// The PyTorch search space for one problem: which ways of running its reference apply, and what each means.
import type { Problem } from '@kernelforge/sdk';
import { type ForwardSource, readForward } from './forward.js';
import { findTail, type Tail } from './fuse.js';
import type { TorchLayout, TorchMode, TorchPoint } from './render.js';

export interface TorchSpace {
  reference: string;
  forward: ForwardSource;
  tail: Tail | null;
  modes: TorchMode[];
  layouts: TorchLayout[];
  threads: number[];
  /** Options left out, with why (said once in the first explanation). */
  skipped: string[];
}

export const ABOUT: Record<TorchMode, string> = {
  eager: "the reference's forward as written (eager PyTorch)",
  inference: 'the same forward under torch.inference_mode() (no autograd bookkeeping, no version counters)',
  script:
    'the forward traced with TorchScript, frozen (parameters as constants) and passed through torch.jit.optimize_for_inference (oneDNN conversions and operator fusion), once per input shape',
  fused:
    "the forward's elementwise tail computed by one generated C++/OpenMP loop (torch.utils.cpp_extension.load_inline), the rest (GEMM, convolution, norms) left to PyTorch",
  cuda_fused:
    "the forward's elementwise tail computed by one generated CUDA kernel (torch.utils.cpp_extension.load_inline, built with nvcc), the rest (GEMM, convolution, norms) left to PyTorch (cuBLAS, cuDNN)",
  triton_fused:
    "the forward's elementwise tail computed by one generated Triton kernel (compiled on the device), the rest (GEMM, convolution, norms) left to PyTorch (cuBLAS, cuDNN)",
};

/** Options that move ahead of the others, in the order the search tries them from the best point. */
export const MODE_ORDER: TorchMode[] = ['triton_fused', 'cuda_fused', 'fused', 'script', 'inference', 'eager'];

export function torchSpace(
  problem: Problem,
  cores: number,
  backend: 'cpu' | 'cuda' = 'cpu',
): TorchSpace | { why: string } {
  const reference = problem.reference_source ?? '';
  const forward = readForward(reference);
  if (!forward) return { why: 'its file has no `class Model` with a forward the tuner can read' };
  const skipped: string[] = [];
  const tail = findTail(forward, reference);
  const modes: TorchMode[] = ['eager', 'inference'];
  // Freezing needs eval mode, which changes what BatchNorm and Dropout compute: the reference runs in training mode.
  if (/\b(BatchNorm\w*|Dropout\w*|InstanceNorm\w*)\b/.test(reference))
    skipped.push(
      'TorchScript freeze: the model has BatchNorm/Dropout/InstanceNorm layers, which compute differently in the eval mode freezing needs',
    );
  else modes.push('script');
  if (tail && backend === 'cpu') modes.push('fused');
  else if (tail) modes.push('triton_fused', 'cuda_fused');
  else
    skipped.push(
      "a fused C++ tail: forward does not end in a chain of elementwise operations on one tensor that the tuner's generator knows (relu, gelu, sigmoid, tanh, swish, hardsigmoid, leaky_relu, softplus, clamp, +-*/ by a scalar or a per-channel tensor)",
    );
  const layouts: TorchLayout[] = ['contiguous'];
  if (/\b(Conv2d|conv2d)\b/.test(reference)) layouts.push('channels_last');
  else skipped.push('channels-last memory format: no 2-d convolution');
  const threads = [0];
  // On a GPU the host threads only launch kernels: no thread counts to search.
  if (backend === 'cpu' && cores >= 2) threads.push(1);
  if (backend === 'cpu' && cores >= 4) threads.push(Math.floor(cores / 2));
  return { reference, forward, tail, modes, layouts, threads, skipped };
}

export const START: TorchPoint = { mode: 'eager', layout: 'contiguous', threads: 0 };

export const pointKey = (p: TorchPoint) => `mode=${p.mode},layout=${p.layout},threads=${p.threads}`;

export function describe(p: TorchPoint): string {
  return `${p.mode}, ${p.layout === 'channels_last' ? 'channels-last' : 'contiguous'} layout, ${
    p.threads === 0 ? "the runner's thread count" : `${p.threads} thread${p.threads === 1 ? '' : 's'}`
  }`;
}
