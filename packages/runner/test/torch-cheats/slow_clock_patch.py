# Cheat: an honest but slow (25 ms) kernel that makes every clock in its process report almost no time.
import time

import torch
import torch.nn as nn

_sleep = time.sleep
_real = time.perf_counter_ns
time.perf_counter = lambda: _real() / 1e9 / 1000
time.perf_counter_ns = lambda: _real() // 1000
time.monotonic = lambda: _real() / 1e9 / 1000


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        _sleep(0.025)
        return torch.nn.functional.hardsigmoid(x)
