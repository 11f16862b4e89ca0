import torch
import torch.nn as nn


class Model(nn.Module):
    """
    A linear layer, then the row sum and the row max of its output combined, then LeakyReLU.
    Output: (batch_size, 1).
    """

    def __init__(self, in_features: int, out_features: int, negative_slope: float):
        super(Model, self).__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x)
        s = torch.sum(y, dim=1, keepdim=True)
        m = torch.max(y, dim=1, keepdim=True)[0]
        return torch.nn.functional.leaky_relu(s * 0.01 + m, self.negative_slope)


batch_size = 1024
in_features = 1024
out_features = 1024
negative_slope = 0.1


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, negative_slope]
