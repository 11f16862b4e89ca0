import torch
import torch.nn as nn


class Model(nn.Module):
    """
    A linear layer, group normalisation of its features, then Swish (x * sigmoid(x)).
    out_features must stay a multiple of num_groups.
    """

    def __init__(self, in_features: int, out_features: int, num_groups: int):
        super(Model, self).__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.group_norm = nn.GroupNorm(num_groups, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.gemm(x)
        x = self.group_norm(x)
        return x * torch.sigmoid(x)


batch_size = 512
in_features = 1024
out_features = 2048
num_groups = 32


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, num_groups]
