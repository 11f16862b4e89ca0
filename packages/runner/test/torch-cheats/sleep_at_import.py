# Stall: the file sleeps at import, then is an honest HardSigmoid. Each call and model build is bounded against the
# reference (sleeping_forward.py), but before brief R (issue 31 follow-up) the worker's start-up, which imports the
# file, waited for up to the plan's 120 s start timeout: a file sleeping 100 s at import held the runner that long per
# timed run (twice for a ranked submission), and was then accepted.
import time

import torch.nn as nn
import torch.nn.functional as F

time.sleep(globals().get("KF_IMPORT_SLEEP_S", 100.0))


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        return F.hardsigmoid(x)
