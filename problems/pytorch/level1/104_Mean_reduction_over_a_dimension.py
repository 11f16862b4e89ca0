import torch
import torch.nn as nn


class Model(nn.Module):
    """
    Mean over one dimension (the dimension is a constructor argument).
    """

    def __init__(self, dim: int):
        super(Model, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """
        Args:
            x (torch.Tensor): (batch_size, dim1, dim2)

        Returns:
            torch.Tensor: the mean over `self.dim`, that dimension removed.
        """
        return torch.mean(x, dim=self.dim)


batch_size = 64
dim1 = 4096
dim2 = 2048
reduce_dim = 1


def get_inputs():
    x = torch.randn(batch_size, dim1, dim2)
    return [x]


def get_init_inputs():
    return [reduce_dim]
