# Cheat (cuda): the work on a stream of its own, returned without waiting for it, so a timer that stops at the
# return (or synchronizes only the current stream) ends before the kernels do. The harness's worker synchronizes the
# whole device before the end of every timed call: this is timed in full (and the extra passes make it slower).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()
        self.side = torch.cuda.Stream()

    def forward(self, x):
        self.side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.side):
            y = x
            for _ in range(8):
                y = y * 1.0
            y = torch.nn.functional.hardsigmoid(y)
        return y
