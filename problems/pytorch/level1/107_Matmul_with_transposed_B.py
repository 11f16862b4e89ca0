import torch
import torch.nn as nn


class Model(nn.Module):
    """
    C = A @ B.T with A (M, K) and B (N, K): B is stored row by row, as a Linear layer stores its weight.
    """

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B.T)


M = 1024
K = 2048
N = 1024


def get_inputs():
    A = torch.randn(M, K)
    B = torch.randn(N, K)
    return [A, B]


def get_init_inputs():
    return []
