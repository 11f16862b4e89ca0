import torch
import torch.nn as nn


class Model(nn.Module):
    """
    Softplus with a steepness beta and a linear threshold: log(1 + exp(beta * x)) / beta,
    and x itself where beta * x > threshold.
    """

    def __init__(self, beta: float, threshold: float):
        super(Model, self).__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.softplus(x, beta=self.beta, threshold=self.threshold)


batch_size = 2048
dim = 131072
beta = 2.0
threshold = 10.0


def get_inputs():
    x = torch.randn(batch_size, dim) * 3
    return [x]


def get_init_inputs():
    return [beta, threshold]
