import torch
import torch.nn as nn


class Model(nn.Module):
    """
    Batched matrix product C[b] = A[b] @ B[b] with A (batch, m, k) and B (batch, k, n).
    """

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.bmm(A, B)


batch_size = 32
m = 256
k = 512
n = 768


def get_inputs():
    A = torch.randn(batch_size, m, k)
    B = torch.randn(batch_size, k, n)
    return [A, B]


def get_init_inputs():
    return []
