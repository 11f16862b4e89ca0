import torch
import torch.nn as nn


class Model(nn.Module):
    """
    A residual block as in small ResNets: conv3x3 - BatchNorm - ReLU - conv3x3 - BatchNorm, plus the input,
    then ReLU. Evaluated in inference mode (BatchNorm uses its running statistics).
    """

    def __init__(self, channels: int):
        super(Model, self).__init__()
        self.conv1 = nn.Conv2d(channels, channels, kernel_size=3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, kernel_size=3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)
        with torch.no_grad():
            for bn in (self.bn1, self.bn2):
                bn.running_mean.copy_(0.1 * torch.randn(channels))
                bn.running_var.copy_(1.0 + 0.1 * torch.rand(channels))
        self.eval()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return torch.relu(y + x)


batch_size = 8
channels = 64
height = 56
width = 56


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels]
