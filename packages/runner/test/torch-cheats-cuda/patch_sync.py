# Cheat (cuda): patch the clocks a worker might use: torch.cuda.synchronize a no-op, every event's elapsed time
# tiny. The worker bound its synchronize before importing this file, and the time that counts is the harness's,
# from outside the process: it gains nothing (the forged event time is only kept as the worker's "inside" figure).
import torch
import torch.nn as nn

torch.cuda.synchronize = lambda *a, **k: None
torch.cuda.Event.elapsed_time = lambda self, other: 1e-6


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        y = x
        for _ in range(8):
            y = y * 1.0
        return torch.nn.functional.hardsigmoid(y)
