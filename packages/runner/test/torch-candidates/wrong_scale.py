# A wrong candidate: off by a constant factor.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        return torch.nn.functional.hardsigmoid(x) * 1.01
