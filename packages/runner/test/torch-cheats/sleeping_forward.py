# Cheat: sleep in forward(). Nothing is wrong with the results; the candidate only holds the runner (before
# issue 31 each call had the plan's 5-10 s deadline and there are dozens of calls: minutes per evaluation).
# KF_SLEEP_S (prepended by the test) sets the sleep.
import time

import torch.nn as nn
import torch.nn.functional as F

SLEEP_S = globals().get("KF_SLEEP_S", 2.0)


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        time.sleep(SLEEP_S)
        return F.hardsigmoid(x)
