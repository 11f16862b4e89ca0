# An honest Triton answer on a GPU: HardSigmoid as one Triton kernel.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hsig_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x_ptr + offs, mask=mask, other=0.0) / 6.0 + 0.5
    tl.store(y_ptr + offs, tl.minimum(tl.maximum(v, 0.0), 1.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        hsig_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y
