import torch
import torch.nn as nn


class Model(nn.Module):
    """
    A small multi-layer perceptron: Linear + ReLU blocks of the given widths, then a Linear output layer.
    """

    def __init__(self, input_size: int, layer_sizes: list, output_size: int):
        super(Model, self).__init__()
        layers = []
        width = input_size
        for size in layer_sizes:
            layers.append(nn.Linear(width, size))
            layers.append(nn.ReLU())
            width = size
        layers.append(nn.Linear(width, output_size))
        self.network = nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.network(x)


batch_size = 512
input_size = 2048
hidden_size = 1024
output_size = 64


def get_inputs():
    return [torch.randn(batch_size, input_size)]


def get_init_inputs():
    return [input_size, [hidden_size, hidden_size // 2, hidden_size // 4], output_size]
