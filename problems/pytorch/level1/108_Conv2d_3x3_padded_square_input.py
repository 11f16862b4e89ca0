import torch
import torch.nn as nn


class Model(nn.Module):
    """
    A 2-D convolution with a 3x3 kernel, stride 1, padding 1 (same-size output), with bias.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, padding: int):
        super(Model, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=padding, bias=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


batch_size = 8
in_channels = 16
out_channels = 64
height = 256
width = 256
kernel_size = 3
padding = 1


def get_inputs():
    x = torch.randn(batch_size, in_channels, height, width)
    return [x]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, padding]
