// Starting files for a pytorch answer, one per way of writing it on the chosen device: PyTorch operators, C++ or CUDA
// built with load_inline, Triton. Each keeps the reference's class (renamed KfReference) so ModelNew has its exact
// constructor and parameter names, and starts from an answer that is right: the reference's result passed through a
// kernel of the chosen kind that copies it (float32 tensors). Moving the work into that kernel is the exercise.
import { modelNewTemplate } from '@kernelforge/sdk';

export type TorchTemplateKind = 'pytorch' | 'cpp' | 'cuda' | 'triton';

export const TORCH_TEMPLATE_NAMES: Record<TorchTemplateKind, string> = {
  pytorch: 'PyTorch operators',
  cpp: 'C++ (load_inline)',
  cuda: 'CUDA (load_inline)',
  triton: 'Triton',
};

/** The reference with `Model` renamed `KfReference`, so ModelNew can extend it (its constructor and parameters). */
function asBase(reference: string): string {
  return reference
    .replace(/^(\s*)class Model\s*\(/gm, '$1class KfReference(')
    .replace(/\bsuper\(\s*Model\s*,\s*self\s*\)/g, 'super(KfReference, self)');
}

const CPP = `
_kf_cpp = r"""
#include <torch/extension.h>

// One float32 tensor in, one out. Replace the copy with your kernel (and take the inputs forward gets).
torch::Tensor kf_kernel(torch::Tensor x) {
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "this skeleton takes float32");
    auto in = x.contiguous();
    auto out = torch::empty_like(in);
    const float* src = in.data_ptr<float>();
    float* dst = out.data_ptr<float>();
    const int64_t n = in.numel();
    #pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) dst[i] = src[i];
    return out;
}
"""

_kf_ext = load_inline(
    name="kf_answer_cpp",
    cpp_sources=_kf_cpp,
    functions=["kf_kernel"],
    extra_cflags=["-O3", "-march=native", "-fopenmp"],
    extra_ldflags=["-fopenmp"],
)
`;

const CUDA = `
_kf_cuda = r"""
#include <torch/extension.h>

__global__ void kf_copy(const float* __restrict__ src, float* __restrict__ dst, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) dst[i] = src[i];  // replace with your kernel
}

torch::Tensor kf_kernel(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32, "this skeleton takes float32 on the GPU");
    auto in = x.contiguous();
    auto out = torch::empty_like(in);
    const int64_t n = in.numel();
    const int threads = 256;
    const int64_t blocks = (n + threads - 1) / threads;
    kf_copy<<<blocks, threads>>>(in.data_ptr<float>(), out.data_ptr<float>(), n);
    return out;
}
"""

_kf_ext = load_inline(
    name="kf_answer_cuda",
    cpp_sources="torch::Tensor kf_kernel(torch::Tensor x);",
    cuda_sources=_kf_cuda,
    functions=["kf_kernel"],
    extra_cuda_cflags=["-O3"],
)
`;

const TRITON = `
@triton.jit
def _kf_copy(src, dst, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(dst + offsets, tl.load(src + offsets, mask=mask), mask=mask)  # replace with your kernel


class _KfExt:
    @staticmethod
    def kf_kernel(x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        _kf_copy[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out


_kf_ext = _KfExt()
`;

const MODEL_NEW = `

class ModelNew(KfReference):
    """The reference's constructor and parameters, its forward's result passed through the kernel above.

    Start here (it is right as it is), then move the reference's work into the kernel, one step at a time.
    """

    def forward(self, *args):
        return _kf_ext.kf_kernel(super().forward(*args))
`;

export function torchTemplate(kind: TorchTemplateKind, reference: string): string {
  if (kind === 'pytorch') return modelNewTemplate(reference);
  const head =
    kind === 'triton'
      ? 'import torch\nimport triton\nimport triton.language as tl\n'
      : 'import torch\nfrom torch.utils.cpp_extension import load_inline\n';
  const kernel = kind === 'cpp' ? CPP : kind === 'cuda' ? CUDA : TRITON;
  return `${head}\n${asBase(reference).trim()}\n${kernel}${MODEL_NEW}`;
}
