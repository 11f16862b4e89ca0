import torch
import torch.nn as nn


class Model(nn.Module):
    """
    LogSoftmax over dimension 1 of a 2-D input.
    """

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.log_softmax(x, dim=1)


batch_size = 1024
dim = 262144


def get_inputs():
    x = torch.randn(batch_size, dim) * 5
    return [x]


def get_init_inputs():
    return []
