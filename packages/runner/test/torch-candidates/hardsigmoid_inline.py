# An honest load_inline candidate: HardSigmoid in C++ with OpenMP.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp = r"""
#include <torch/extension.h>
torch::Tensor hsig(torch::Tensor x) {
  auto xc = x.contiguous();
  auto y = torch::empty_like(xc);
  const float* a = xc.data_ptr<float>();
  float* b = y.data_ptr<float>();
  int64_t n = xc.numel();
  #pragma omp parallel for
  for (int64_t i = 0; i < n; i++) {
    float v = a[i] / 6.0f + 0.5f;
    b[i] = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
  }
  return y;
}
"""
ext = load_inline(name="kf_hsig", cpp_sources=cpp, functions=["hsig"], extra_cflags=["-O3", "-fopenmp"],
                  extra_ldflags=["-fopenmp"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        return ext.hsig(x)
