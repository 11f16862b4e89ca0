import torch
import torch.nn as nn


class Model(nn.Module):
    """
    RMS normalisation over the last dimension with a learned per-feature gain:
    y = x / sqrt(mean(x^2, dim=-1) + eps) * weight
    """

    def __init__(self, features: int, eps: float = 1e-6):
        super(Model, self).__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(features) + 0.1 * torch.randn(features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rms = torch.sqrt(torch.mean(x * x, dim=-1, keepdim=True) + self.eps)
        return x / rms * self.weight


batch_size = 128
seq_len = 512
features = 4096


def get_inputs():
    x = torch.randn(batch_size, seq_len, features)
    return [x]


def get_init_inputs():
    return [features]
