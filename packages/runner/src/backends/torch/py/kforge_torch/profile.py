# The torch facts' extra run (docs/evaluation.md "Build facts", torch): on cuda, and for a run that timed nothing, one
# untimed run made after the timed runs and judged by nothing (on a cpu the candidate's own worker gathers them once
# its timed phase is over: facts.py). It imports the candidate, so it runs in the candidate's own sandbox (its box
# at /w, read-only; bwrap, pid 1, rlimits, the job's cgroup, the worker's seccomp filter on a cpu) and nothing it
# prints is trusted: the runner reads one JSON line, checks its shape and caps it, and the facts only explain a
# result shown to the candidate's author.
#
# It builds ModelNew as the harness does (the reference's get_init_inputs at the first benchmark case's sizes,
# torch.manual_seed(ctor_seed)) and reports facts.py's facts_of one call on get_inputs().
import argparse
import json
import sys

from . import common, loader
from .facts import facts_of

MARK = "KF_TORCH_FACTS "


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plan", required=True)
    args = ap.parse_args()
    with open(args.plan, encoding="utf-8") as f:
        plan = json.load(f)
    device = plan["device"]

    import torch

    torch.set_num_threads(max(1, int(plan.get("threads", 1))))
    if device != "cpu":
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
    with open("/w/kf_profile_reference.py", encoding="utf-8") as f:
        ref = common.load_module(f.read(), plan["file_name"], plan.get("constants") or None)
    loader.install_prebuilt_loader()
    cand = loader.import_module("/w/candidate.py", "candidate")
    init = list(ref.get_init_inputs())
    torch.manual_seed(int(plan["ctor_seed"]))
    model = cand.ModelNew(*init)
    torch.manual_seed(int(plan["ctor_seed"]) + 1)
    inputs = list(ref.get_inputs())
    if device != "cpu":
        model = model.to(device)
        inputs = [x.to(device) if isinstance(x, torch.Tensor) else x for x in inputs]
    facts = facts_of(torch, lambda: model(*inputs), device, cand)
    sys.stdout.write(MARK + json.dumps(facts) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
