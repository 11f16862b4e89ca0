# The reference at one case's constants (the harness runs it itself: the expected outputs and the reference's own
# times), and the input distributions each seed is checked with.
import time

import torch

from .common import load_module

from .checks import flat, literal
from .plan import DEVICE, FILE_NAME, PLAN, SOURCE


# The reference's time per case (s): the harness's own runs of the reference (correctness) and the eager baseline's
# timed calls; the candidate's deadlines are multiples of their median (CandidateClock).
REF_TIMES = {}


def ref_time(name):
    v = sorted(REF_TIMES.get(name) or [0.0])
    return v[len(v) // 2]


class Problem:
    """The reference at one case's constants: its module, init args, model, seeded inputs."""

    def __init__(self, constants, name="?"):
        t0 = time.perf_counter()
        self.name = name
        self.mod = load_module(SOURCE, FILE_NAME, constants)
        self.ctor_seed = PLAN["ctor_seed"]
        torch.manual_seed(self.ctor_seed)
        self.init = list(self.mod.get_init_inputs())
        self.init_args = [literal(v) for v in self.init]
        torch.manual_seed(self.ctor_seed)
        self.model = self.mod.Model(*self.init)
        self.params = [(n, t.detach().clone()) for n, t in self.model.state_dict().items()]
        # Built on the cpu (the same parameters as every worker's, from the same public seed), run on the device.
        if DEVICE != "cpu":
            self.model = self.model.to(DEVICE)
        self.build_s = time.perf_counter() - t0

    def inputs(self, seed, dist):
        torch.manual_seed(seed)
        if DEVICE != "cpu":
            # Drawn on the device (fast at GPU sizes), kept on the cpu: the shared memory is the host's.
            with torch.device(DEVICE):
                xs = [x.cpu() if isinstance(x, torch.Tensor) else x for x in self.mod.get_inputs()]
        else:
            xs = list(self.mod.get_inputs())
        if dist == "scaled_x4":
            xs = [x * 4 if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in xs]
        return xs

    def expected(self, inputs):
        """The reference's outputs on these inputs; its time (the call alone) joins the case's reference times."""
        args = [x.to(DEVICE, copy=True) if isinstance(x, torch.Tensor) else x for x in inputs]
        with torch.no_grad():
            t0 = time.perf_counter()
            out = self.model(*args)
            if DEVICE != "cpu":
                torch.cuda.synchronize()
            REF_TIMES.setdefault(self.name, []).append(time.perf_counter() - t0)
            return [o.detach().to("cpu", copy=True) for o in flat(out)]

    def ref_s(self):
        return ref_time(self.name)

    def build_ref_s(self):
        """The reference's time for what a worker's model build does: construct the model, call it twice."""
        return self.build_s + 2 * self.ref_s()


def distributions(p, seed):
    xs = p.inputs(seed, "as_written")
    return ["as_written", "scaled_x4"] if any(isinstance(x, torch.Tensor) and x.is_floating_point() for x in xs) else ["as_written"]
