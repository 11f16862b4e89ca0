// The tuner's kernels for pytorch problems on a cuda device (issue 33 item 4): the forward's elementwise tail (fuse.ts
// finds it: GELU then a scale after a Linear, a bias and a ReLU after a convolution, ...) as one generated kernel, in
// either form the field writes: CUDA C++ through torch.utils.cpp_extension.load_inline, or Triton. The rest of the
// forward (GEMM, convolution, norms) stays with PyTorch (cuBLAS, cuDNN). One pass over the tail's tensor instead of
// one per operation.
import { createHash } from 'node:crypto';
import type { Tail } from './fuse.js';

/** The tail's C++ (fuse.ts writes it for the cpu loop) as CUDA device code: the float overloads of libm. */
export function cudaOp(cpp: string): string {
  return cpp
    .replace(/std::min\(/g, 'fminf(')
    .replace(/std::max\(/g, 'fmaxf(')
    .replace(/std::erf\(/g, 'erff(')
    .replace(/std::exp\(/g, '__expf(')
    .replace(/std::log1p\(/g, 'log1pf(')
    .replace(/\bkf_tanh\(/g, 'tanhf(');
}

/**
 * The CUDA part of the load_inline answer: the kernel and a launcher on raw pointers. No torch header, so it
 * compiles alone with nvcc (tested here without a GPU); the C++ part (`cudaTailCpp`) holds the torch glue.
 */
export function cudaTailKernel(tail: Tail): string {
  const ns = Math.max(1, tail.scalars.length);
  const tensorParams = tail.tensors.map((_, i) => `, const float* __restrict__ t${i}`).join('');
  const tensorArgs = tail.tensors.map((_, i) => `, t${i}`).join('');
  const tensorPtrs = tail.tensors.map((_, i) => `, const float* t${i}`).join('');
  const body = tail.ops.map((o) => `    ${cudaOp(o.cpp)}`).join('\n');
  return `#include <cstdint>
#include <cuda_runtime.h>

struct KfScalars { float v[${ns}]; };

// The elementwise tail of the reference's forward, one pass over memory:
${tail.ops.map((o) => `//   ${o.wrote}`).join('\n')}
__global__ void kf_tail_kernel(const float* __restrict__ a, float* __restrict__ b, int64_t n, KfScalars sv,
                               int64_t inner, int64_t C${tensorParams}) {
  const float* s = sv.v;
  (void)s; (void)inner; (void)C;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    const int64_t c = (i / inner) % C;
    (void)c;
    float v = a[i];
${body}
    b[i] = v;
  }
}

// Launched on the current (default) stream, as PyTorch's own kernels are in the worker: nothing runs after return.
void kf_tail_launch(const float* a, float* b, int64_t n, const float* scalars, int64_t ns, int64_t inner,
                    int64_t C${tensorPtrs}) {
  KfScalars sv = {};
  for (int64_t i = 0; i < ns && i < ${ns}; i++) sv.v[i] = scalars[i];
  const int threads = 256;
  int64_t blocks = (n + threads - 1) / threads;
  if (blocks > 65535 * 8) blocks = 65535 * 8;
  if (blocks < 1) blocks = 1;
  kf_tail_kernel<<<(unsigned)blocks, threads>>>(a, b, n, sv, inner, C${tensorArgs});
}
`;
}

/** The C++ part of the load_inline answer: checks, the output tensor, the launch. */
export function cudaTailCpp(tail: Tail): string {
  const tensorPtrs = tail.tensors.map((_, i) => `, const float* t${i}`).join('');
  const tensorArgs = tail.tensors.map((_, i) => `, ts[${i}].data_ptr<float>()`).join('');
  return `#include <torch/extension.h>
#include <vector>

void kf_tail_launch(const float* a, float* b, int64_t n, const float* scalars, int64_t ns, int64_t inner,
                    int64_t C${tensorPtrs});

torch::Tensor kf_tail(torch::Tensor x, std::vector<double> sd, std::vector<torch::Tensor> ts, int64_t inner, int64_t C,
                      bool inplace) {
  TORCH_CHECK(x.is_cuda(), "the fused tail runs on a cuda device");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "the fused tail handles float32 only");
  TORCH_CHECK(x.is_contiguous(), "the fused tail needs a contiguous tensor");
  TORCH_CHECK(ts.size() == ${tail.tensors.length}, "per-channel operands");
  torch::Tensor y = inplace ? x : torch::empty_like(x);
  std::vector<float> s(sd.begin(), sd.end());
  kf_tail_launch(x.data_ptr<float>(), y.data_ptr<float>(), x.numel(), s.data(), (int64_t)s.size(), inner, C${tensorArgs});
  return y;
}
`;
}

/** One tail op (fuse.ts's C++ over `v`) as Triton statements over the block `v`. */
export function tritonOp(cpp: string): string[] {
  let code = cpp.trim();
  if (code.startsWith('{') && code.endsWith('}')) code = code.slice(1, -1);
  const out: string[] = [];
  for (const raw of code.split(';')) {
    let st = raw.trim();
    if (!st) continue;
    st = st.replace(/^const float /, '');
    st = st
      .replace(/\(\(float\)\(([^()]+)\)\)/g, '($1)')
      .replace(/(\d(?:\.\d*)?(?:e[-+]?\d+)?)f\b/g, '$1')
      .replace(/std::min\(/g, 'tl.minimum(')
      .replace(/std::max\(/g, 'tl.maximum(')
      .replace(/std::erf\(/g, 'tl.erf(')
      .replace(/std::exp\(/g, 'tl.exp(')
      .replace(/std::log1p\(/g, '_kf_log1p(')
      .replace(/\bkf_tanh\(/g, '_kf_tanh(')
      .replace(/\bs\[(\d+)\]/g, 's$1')
      .replace(/\bt(\d+)\[c\]/g, 'tl.load(t$1 + c, mask=mask, other=0.0)');
    const m = /^(\w+) = (.+) \? (.+) : (.+)$/.exec(st);
    if (m) st = `${m[1]} = tl.where(${m[2]}, ${m[3]}, ${m[4]})`;
    if (st.includes('?') || st.includes('::') || /\[[^\]]*\]/.test(st.replace(/tl\.load\([^)]*\)/g, '')))
      throw new Error(`the Triton generator cannot write ${cpp}`);
    out.push(st);
  }
  return out;
}

/** The Triton kernel of a tail and its launcher (Python source, helpers included). */
export function tritonTail(tail: Tail): string {
  const ns = Math.max(1, tail.scalars.length);
  const scalars = Array.from({ length: ns }, (_, i) => `s${i}`);
  const tensors = tail.tensors.map((_, i) => `t${i}`);
  const body = tail.ops.flatMap((o) => tritonOp(o.cpp)).map((l) => `    ${l}`);
  const params = ['x_ptr', 'y_ptr', 'n', 'inner', 'C', ...scalars, ...tensors, 'BLOCK: tl.constexpr'].join(', ');
  return `
import triton as _kf_triton
import triton.language as tl


@_kf_triton.jit
def _kf_tanh(x):
    return 2.0 * tl.sigmoid(2.0 * x) - 1.0


@_kf_triton.jit
def _kf_log1p(x):
    return tl.log(1.0 + x)


# The elementwise tail of the reference's forward, one pass over memory:
${tail.ops.map((o) => `#   ${o.wrote}`).join('\n')}
@_kf_triton.jit
def _kf_tail_kernel(${params}):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    c = (offs // inner) % C
    v = tl.load(x_ptr + offs, mask=mask, other=0.0)
${body.join('\n')}
    tl.store(y_ptr + offs, v, mask=mask)


def _kf_tail_launch(x, y, scalars, tensors, inner, C):
    n = x.numel()
    s = [float(v) for v in scalars] + [0.0] * (${ns} - len(scalars))
    grid = (_kf_triton.cdiv(n, 1024),)
    _kf_tail_kernel[grid](x, y, n, inner, C, *s[:${ns}], *tensors, BLOCK=1024)
    return y
`;
}

/** The helpers a cuda-fused ModelNew file carries: the load_inline build and `_kf_tail`. */
export function cudaFusedHelpers(tail: Tail): string {
  const kernel = cudaTailKernel(tail);
  const cpp = cudaTailCpp(tail);
  const name = `kf_cuda_tail_${createHash('sha256')
    .update(kernel + cpp)
    .digest('hex')
    .slice(0, 12)}`;
  return `
from torch.utils.cpp_extension import load_inline as _kf_load_inline

_KF_CUDA = r"""
${kernel}"""
_KF_CPP = r"""
${cpp}"""
_kf_ext = _kf_load_inline(
    name="${name}",
    cpp_sources=_KF_CPP,
    cuda_sources=_KF_CUDA,
    functions=["kf_tail"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)
${TAIL_ARGS}

def _kf_tail(x, scalars, tensors, args, may_overwrite):
    x, ts, inner, C, inplace = _kf_tail_args(x, tensors, args, may_overwrite)
    return _kf_ext.kf_tail(x, [float(v) for v in scalars], ts, inner, C, inplace)
`;
}

/** The helpers a triton-fused ModelNew file carries. */
export function tritonFusedHelpers(tail: Tail): string {
  return `${tritonTail(tail)}${TAIL_ARGS}

def _kf_tail(x, scalars, tensors, args, may_overwrite):
    x, ts, inner, C, inplace = _kf_tail_args(x, tensors, args, may_overwrite)
    y = x if inplace else _kf_torch.empty_like(x)
    return _kf_tail_launch(x, y, scalars, ts, inner, C)
`;
}

/** Shared by both forms: the tail's tensor made contiguous, its per-channel operands flattened, whether it may be
    overwritten (a fresh output of a module that no argument shares). */
const TAIL_ARGS = `

def _kf_tail_args(x, tensors, args, may_overwrite):
    x = x.contiguous()
    inner, C, ts = 1, 1, []
    if tensors:
        C = x.shape[1] if x.dim() >= 2 else x.numel()
        for d in x.shape[2:]:
            inner *= d
        for t in tensors:
            shape = [1] * (x.dim() - t.dim()) + list(t.shape)
            if t.numel() == 1:
                t = t.reshape(1).expand(C)
            elif x.dim() < 2 or shape[1] != C or any(s != 1 for i, s in enumerate(shape) if i != 1):
                raise RuntimeError(f"the fused tail takes per-channel operands only, not shape {tuple(t.shape)}")
            ts.append(t.reshape(-1).to(_kf_torch.float32).contiguous())
    def storage(t):
        return (t.untyped_storage() if hasattr(t, "untyped_storage") else t.storage()).data_ptr()

    p = storage(x)
    shares = any(isinstance(a, _kf_torch.Tensor) and storage(a) == p for a in args)
    return x, ts, inner, C, may_overwrite and not shares
`;
