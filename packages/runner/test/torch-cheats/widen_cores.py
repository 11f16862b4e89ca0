# Cheat: widen every thread of the worker to every cpu on every call, onto the busy cores the core budget left out
# (the baseline gets only the budget). Allowed by the sandbox (a kernel may place its own threads), so the harness
# must set them back after each call and flag the result. Prints what it saw, once.
import os

import torch
import torch.nn as nn

ALL = set(range(os.cpu_count() or 1))
said = []


def widen():
    ok = True
    for t in os.listdir("/proc/self/task"):
        try:
            os.sched_setaffinity(int(t), ALL)
        except OSError:
            ok = False
    return ok


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        if not said:
            said.append(1)
            print("cores seen:", " ".join(str(c) for c in sorted(os.sched_getaffinity(0))), flush=True)
            print("widen", "ALLOWED" if widen() else "DENIED", flush=True)
        else:
            widen()
        return torch.nn.functional.hardsigmoid(x)
