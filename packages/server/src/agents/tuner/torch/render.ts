// Writes a point of the PyTorch search as a complete ModelNew file made from the problem's reference source.
import { createHash } from 'node:crypto';
import type { ForwardSource } from './forward.js';
import type { Tail } from './fuse.js';
import { cudaFusedHelpers, tritonFusedHelpers } from './gpu.js';

/** fused: the tail as a C++/OpenMP loop (cpu); cuda_fused and triton_fused: as a CUDA kernel through load_inline or a
    Triton kernel (cuda devices, gpu.ts). */
export type TorchMode = 'eager' | 'inference' | 'script' | 'fused' | 'cuda_fused' | 'triton_fused';
export type TorchLayout = 'contiguous' | 'channels_last';

export interface TorchPoint {
  mode: TorchMode;
  layout: TorchLayout;
  /** 0: the runner's setting (one thread per core of the device). */
  threads: number;
}

/** The reference's Model, renamed, stays in the file: ModelNew subclasses it, so parameter names are the same. */
const BASE = 'KfReference';

const flatLoop = (body: string) => `  #pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i++) {
    float v = a[i];
${body}
    b[i] = v;
  }`;

// Per-channel operands: the channel comes from the loop structure, not a division per element (which costs more
// than the whole tail). NCHW: runs of \`inner\` elements share a channel; channels-last (inner 1): rows of C.
const perChannelLoop = (body: string) => `  if (inner == 1) {
    const int64_t rows = n / C;
    #pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; r++) {
      const float* ar = a + r * C;
      float* br = b + r * C;
      for (int64_t c = 0; c < C; c++) {
        float v = ar[c];
${body.replace(/^/gm, '    ')}
        br[c] = v;
      }
    }
  } else {
    const int64_t blocks = n / inner;
    #pragma omp parallel for schedule(static)
    for (int64_t blk = 0; blk < blocks; blk++) {
      const int64_t c = blk % C;
      const float* ab = a + blk * inner;
      float* bb = b + blk * inner;
      for (int64_t j = 0; j < inner; j++) {
        float v = ab[j];
${body.replace(/^/gm, '    ')}
        bb[j] = v;
      }
    }
  }`;

function tailCpp(tail: Tail): string {
  const tensors = tail.tensors.map((_, i) => `  const float* t${i} = ts[${i}].data_ptr<float>();`).join('\n');
  const body = tail.ops.map((o) => `    ${o.cpp}`).join('\n');
  return `#include <torch/extension.h>
#include <algorithm>
#include <cmath>
#include <vector>

// tanh as a rational function (Eigen's float approximation, max abs error 4e-7): only multiplies, adds and a
// divide, so the loop vectorises; libm's tanhf and expf are scalar calls without -ffast-math.
static inline float kf_tanh(float x) {
  const float c = std::min(std::max(x, -7.90531110763549805f), 7.90531110763549805f);
  const float x2 = c * c;
  float p = -2.76076847742355e-16f;
  p = p * x2 + 2.00018790482477e-13f;
  p = p * x2 + -8.60467152213735e-11f;
  p = p * x2 + 5.12229709037114e-08f;
  p = p * x2 + 1.48572235717979e-05f;
  p = p * x2 + 6.37261928875436e-04f;
  p = p * x2 + 4.89352455891786e-03f;
  float q = 1.19825839466702e-06f;
  q = q * x2 + 1.18534705686654e-04f;
  q = q * x2 + 2.26843463243900e-03f;
  q = q * x2 + 4.89352518554385e-03f;
  return c * p / q;
}

// The elementwise tail of the reference's forward, one pass over memory:
${tail.ops.map((o) => `//   ${o.wrote}`).join('\n')}
torch::Tensor kf_tail(torch::Tensor x, std::vector<double> sd, std::vector<torch::Tensor> ts, int64_t inner, int64_t C,
                      bool inplace) {
  TORCH_CHECK(x.scalar_type() == torch::kFloat32, "the fused tail handles float32 only");
  torch::Tensor y = inplace ? x : torch::empty_like(x);
  const float* a = x.data_ptr<float>();
  float* b = y.data_ptr<float>();
  const int64_t n = x.numel();
  float s[${Math.max(1, tail.scalars.length)}] = {0};
  for (size_t i = 0; i < sd.size() && i < ${Math.max(1, tail.scalars.length)}; i++) s[i] = (float)sd[i];
${tensors}
  (void)inner; (void)C; (void)s;
${tail.tensors.length ? perChannelLoop(body) : flatLoop(body)}
  return y;
}
`;
}

/** Parameter names of `forward(self, x, y=None, *args)`, without self. */
export function paramNames(params: string): string[] {
  const out: string[] = [];
  let d = 0;
  let cur = '';
  for (const ch of `${params},`) {
    if ('([{'.includes(ch)) d++;
    if (')]}'.includes(ch)) d--;
    if (ch === ',' && d === 0) {
      const name = cur.split(/[:=]/)[0]?.trim().replace(/^\*+/, '') ?? '';
      if (name && name !== 'self') out.push(name);
      cur = '';
    } else cur += ch;
  }
  return out;
}

const HELPERS = `

# ---- ModelNew, written by the Kernelforge tuner from the reference above ----
import torch as _kf_torch


def _kf_channels_last(a):
    if isinstance(a, _kf_torch.Tensor) and a.dim() == 4:
        return a.contiguous(memory_format=_kf_torch.channels_last)
    return a
`;

const SCRIPT_HELPERS = `

class _KfPlain(_kf_torch.nn.Module):
    """The reference's own forward, for tracing."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, *args):
        return ${BASE}.forward(self.m, *args)


def _kf_compile(model, args):
    # TorchScript: trace, freeze (parameters become constants) and optimize_for_inference (oneDNN conversions,
    # operator fusion) for these input shapes.
    plain = _KfPlain(model).eval()
    with _kf_torch.no_grad():
        traced = _kf_torch.jit.trace(plain, tuple(args), check_trace=False)
        return _kf_torch.jit.optimize_for_inference(_kf_torch.jit.freeze(traced))
`;

function fusedHelpers(tail: Tail): string {
  const cpp = tailCpp(tail);
  const name = `kf_tail_${createHash('sha256').update(cpp).digest('hex').slice(0, 12)}`;
  return `
from torch.utils.cpp_extension import load_inline as _kf_load_inline

_KF_CPP = r"""
${cpp}"""
_kf_ext = _kf_load_inline(
    name="${name}",
    cpp_sources=_KF_CPP,
    functions=["kf_tail"],
    extra_cflags=["-O3", "-march=native", "-fopenmp"],
    extra_ldflags=["-fopenmp"],
    verbose=False,
)


def _kf_shares_memory(x, args):
    p = x.storage().data_ptr()
    return any(isinstance(a, _kf_torch.Tensor) and a.storage().data_ptr() == p for a in args)


def _kf_tail(x, scalars, tensors, args, may_overwrite):
    dense = x.is_contiguous() or (x.dim() == 4 and x.is_contiguous(memory_format=_kf_torch.channels_last))
    if not dense:
        x = x.contiguous()
    inner, C, ts = 1, 1, []
    if tensors:
        C = x.shape[1] if x.dim() >= 2 else x.numel()
        inner = 1
        if x.dim() > 2 and x.is_contiguous():
            for d in x.shape[2:]:
                inner *= d
        for t in tensors:
            shape = [1] * (x.dim() - t.dim()) + list(t.shape)
            if t.numel() == 1:
                t = t.reshape(1).expand(C)
            elif x.dim() < 2 or shape[1] != C or any(s != 1 for i, s in enumerate(shape) if i != 1):
                raise RuntimeError(f"the fused tail takes per-channel operands only, not shape {tuple(t.shape)}")
            ts.append(t.reshape(-1).to(_kf_torch.float32).contiguous())
    inplace = may_overwrite and not _kf_shares_memory(x, args)
    return _kf_ext.kf_tail(x, [float(v) for v in scalars], ts, inner, C, inplace)
`;
}

/** The ModelNew file for one point. `tail` is needed for the fused mode. */
export function renderTorch(reference: string, fwd: ForwardSource, tail: Tail | null, point: TorchPoint): string {
  const renamed = reference.replace(/\bModel\b/g, BASE).replace(/\s+$/, '');
  const out: string[] = [renamed, HELPERS];
  if (point.mode === 'script') out.push(SCRIPT_HELPERS);
  const fused = point.mode === 'fused' || point.mode === 'cuda_fused' || point.mode === 'triton_fused';
  if (fused) {
    if (!tail) throw new Error('the fused mode needs an elementwise tail');
    out.push(
      point.mode === 'cuda_fused'
        ? cudaFusedHelpers(tail)
        : point.mode === 'triton_fused'
          ? tritonFusedHelpers(tail)
          : fusedHelpers(tail),
    );
  }
  const cl = point.layout === 'channels_last';
  const doc = [
    `mode=${point.mode}`,
    `layout=${point.layout}`,
    `threads=${point.threads === 0 ? 'runner default' : point.threads}`,
  ].join(', ');
  const init = [
    '    def __init__(self, *args, **kwargs):',
    '        super().__init__(*args, **kwargs)',
    ...(point.threads > 0
      ? [`        # Process-wide, but this process runs only this candidate: the baselines run in their own.`]
      : []),
    ...(point.threads > 0 ? [`        _kf_torch.set_num_threads(${point.threads})`] : []),
    ...(cl ? ['        self.to(memory_format=_kf_torch.channels_last)'] : []),
    ...(point.mode === 'script' ? ['        self._kf_compiled = {}'] : []),
  ];
  let forward: string[];
  if (fused && tail) {
    const names = paramNames(fwd.params);
    const scalars = tail.scalars.map((s) => ('literal' in s ? s.literal : `self.${s.attr}`));
    forward = [
      `    def forward(${fwd.params}):`,
      ...(cl ? names.map((n) => `        ${n} = _kf_channels_last(${n})`) : []),
      '        with _kf_torch.inference_mode():',
      ...tail.prefix.map((s) => `            ${s}`),
      `            return _kf_tail(${tail.input}, [${scalars.join(', ')}], [${tail.tensors.map((t) => `self.${t}`).join(', ')}], (${names.join(', ')}${names.length === 1 ? ',' : ''}), ${tail.producerIsModule ? 'True' : 'False'})`,
    ];
  } else {
    const args = cl ? ['        args = tuple(_kf_channels_last(a) for a in args)'] : [];
    const call =
      point.mode === 'script'
        ? [
            '        key = tuple((tuple(a.shape), a.dtype, a.stride()) if isinstance(a, _kf_torch.Tensor) else repr(a) for a in args)',
            '        fn = self._kf_compiled.get(key)',
            '        if fn is None:',
            '            fn = self._kf_compiled[key] = _kf_compile(self, args)',
            '        return fn(*args)',
          ]
        : point.mode === 'inference'
          ? ['        with _kf_torch.inference_mode():', '            return super().forward(*args)']
          : ['        return super().forward(*args)'];
    forward = ['    def forward(self, *args):', ...args, ...call];
  }
  out.push(
    `

class ModelNew(${BASE}):
    """The reference's module, run differently (${doc})."""

${init.join('\n')}

${forward.join('\n')}
`,
  );
  return out.join('');
}
