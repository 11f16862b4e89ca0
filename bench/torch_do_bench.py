# The do_bench-style timing of one ModelNew file (bench/torch-cuda.mjs compares the runner's figure with it): the
# problem file at the given constants, the candidate built with the reference's parameters, inputs drawn on the
# device, then triton.testing.do_bench (an L2 flush, start event, call, end event per repetition; the median) where
# Triton is installed, else the same loop written here. Trusted code of ours, run outside the sandbox on files of
# ours. On a machine without a GPU (--rehearse) the same on the cpu with perf_counter.
# Usage: python3 torch_do_bench.py PROBLEM.py CANDIDATE.py  (stdin: {"constants": {...}}); prints one JSON line.
import importlib.util
import json
import os
import statistics
import sys
import time

import torch

sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "packages", "runner", "src", "backends", "torch", "py")
)
from kforge_torch.common import load_module  # noqa: E402

problem_path, candidate_path = sys.argv[1], sys.argv[2]
constants = json.loads(sys.stdin.read() or "{}").get("constants", {})
cuda = torch.cuda.is_available()
dev = "cuda" if cuda else "cpu"
if cuda:
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
prebuilt = os.environ.get("KF_PREBUILT_EXT")
if prebuilt and os.path.exists(os.path.join(prebuilt, "manifest.json")):
    # The runner's build of this very source (its compile step's box/ext, cached by content): loaded as is.
    import importlib.machinery
    import torch.utils.cpp_extension as ext

    manifest = json.load(open(os.path.join(prebuilt, "manifest.json"), encoding="utf-8"))

    def load_prebuilt(name, *a, **k):
        so = manifest[name].replace("/w/ext", prebuilt, 1)
        spec = importlib.util.spec_from_file_location(name, so)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    ext.load_inline = load_prebuilt
ref = load_module(open(problem_path, encoding="utf-8").read(), os.path.basename(problem_path), constants)
spec = importlib.util.spec_from_file_location("candidate", candidate_path)
cand = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cand)
torch.manual_seed(42)
init = ref.get_init_inputs()
torch.manual_seed(42)
model = ref.Model(*init)
new = cand.ModelNew(*init)
new.load_state_dict(model.state_dict(), strict=False)
new = new.to(dev)
torch.manual_seed(1)
if cuda:
    with torch.device(dev):
        xs = [x.to(dev) if isinstance(x, torch.Tensor) else x for x in ref.get_inputs()]
else:
    xs = list(ref.get_inputs())


def fn():
    with torch.no_grad():
        return new(*xs)


how = "perf_counter (no GPU)"
if cuda:
    try:
        from triton.testing import do_bench

        ms = do_bench(fn, warmup=25, rep=200, return_mode="median")
        how = "triton.testing.do_bench (median)"
    except ImportError:
        cache = torch.empty(256 << 20, dtype=torch.uint8, device=dev)
        for _ in range(10):
            fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(100):
            cache.zero_()
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            fn()
            e.record()
            torch.cuda.synchronize()
            times.append(s.elapsed_time(e))
        ms = statistics.median(times)
        how = "events with a 256 MiB flush (median of 100; no Triton)"
else:
    for _ in range(3):
        fn()
    times = []
    for _ in range(30):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    ms = statistics.median(times)
print(json.dumps({"ms": ms, "how": how, "device": torch.cuda.get_device_name() if cuda else "cpu"}))
