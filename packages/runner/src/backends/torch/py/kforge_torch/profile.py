# The torch facts of an accepted candidate (docs/evaluation.md "Build facts", torch): one extra, untimed run, made
# after the timed runs and judged by nothing. It imports the candidate, so it runs in the candidate's own sandbox
# (its box at /w, read-only; bwrap, pid 1, rlimits, the job's cgroup, the worker's seccomp filter on a cpu) and
# nothing it prints is trusted: the runner reads one JSON line, checks its shape and caps it, and the facts only
# explain a result shown to the candidate's author.
#
# It builds ModelNew as the harness does (the reference's get_init_inputs at the first benchmark case's sizes,
# torch.manual_seed(ctor_seed)), calls it twice (warm-up: Triton compiles its kernels in the first call), then once
# under torch.profiler, and reports what that call launched: on a cpu the operators by self cpu time, on cuda the
# kernels by device time; and for every Triton kernel of the candidate's module its compiled metadata (warps,
# stages, shared memory, registers, spills) where Triton is importable, else why not.
import argparse
import json
import sys
import time

from . import common, loader

MAX_OPS = 40
MARK = "KF_TORCH_FACTS "


def _num(x):
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def _jit_functions(module):
    """The Triton kernels a module defines: @triton.jit functions, also under @triton.autotune/@heuristics."""
    from triton.runtime.jit import JITFunction

    out = []
    for name, obj in list(vars(module).items()):
        fn, tuned, depth = obj, None, 0
        while fn is not None and not isinstance(fn, JITFunction) and depth < 4:
            if hasattr(fn, "configs") and tuned is None:
                tuned = fn
            fn, depth = getattr(fn, "fn", None), depth + 1
        if isinstance(fn, JITFunction):
            out.append((name, fn, tuned))
    return out


def _compiled(fn):
    """Every compiled kernel a JITFunction holds: Triton 3.3+ keeps them in device_caches[device][0], earlier 3.x
    in cache[device]."""
    kernels = []
    caches = getattr(fn, "device_caches", None)
    if isinstance(caches, dict):
        for v in caches.values():
            c = v[0] if isinstance(v, tuple) else v
            if isinstance(c, dict):
                kernels.extend(c.values())
    cache = getattr(fn, "cache", None)
    if isinstance(cache, dict):
        for v in cache.values():
            if isinstance(v, dict):
                kernels.extend(v.values())
    return kernels


def triton_facts(module):
    """([kernel facts], reason or None)."""
    try:
        import triton
    except Exception as e:  # noqa: BLE001
        return [], f"Triton is not installed here ({type(e).__name__}: {str(e)[:120]})"
    try:
        found = _jit_functions(module)
    except Exception as e:  # noqa: BLE001
        return [], f"this Triton ({getattr(triton, '__version__', '?')}) has no runtime.jit.JITFunction: {e}"[:300]
    if not found:
        return [], "the candidate defines no Triton kernel (no @triton.jit function in its module)"
    out = []
    for name, fn, tuned in found:
        kernels = _compiled(fn)
        if not kernels:
            out.append({"name": name, "compiled": False})
            continue
        for k in kernels[:8]:
            md = getattr(k, "metadata", None)
            get = (lambda a: md.get(a)) if isinstance(md, dict) else (lambda a: getattr(md, a, None))
            try:
                k._init_handles()  # loads the binary: fills n_regs and n_spills
            except Exception:  # noqa: BLE001
                pass
            best = getattr(tuned, "best_config", None) if tuned is not None else None
            out.append(
                {
                    "name": name,
                    "compiled": True,
                    "num_warps": _num(get("num_warps")),
                    "num_stages": _num(get("num_stages")),
                    "shared_bytes": _num(get("shared")),
                    "registers": _num(getattr(k, "n_regs", None)),
                    "spills": _num(getattr(k, "n_spills", None)),
                    "best_config": str(best)[:300] if best is not None else None,
                }
            )
    return out[:50], None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plan", required=True)
    args = ap.parse_args()
    with open(args.plan, encoding="utf-8") as f:
        plan = json.load(f)
    device = plan["device"]

    import torch
    from torch.autograd import DeviceType
    from torch.profiler import ProfilerActivity, profile

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

    def sync():
        if device != "cpu":
            torch.cuda.synchronize()

    with torch.no_grad():
        for _ in range(2):
            model(*inputs)
        sync()
        activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device != "cpu" else [])
        with profile(activities=activities) as prof:
            t0 = time.perf_counter()
            model(*inputs)
            sync()
            call_ms = (time.perf_counter() - t0) * 1e3

    want = DeviceType.CPU if device == "cpu" else DeviceType.CUDA
    ops = {}
    for e in prof.events():
        if e.device_type != want:
            continue
        if want == DeviceType.CPU:
            us = _num(getattr(e, "self_cpu_time_total", None)) or 0.0
            total = _num(getattr(e, "cpu_time_total", None)) or us
        else:
            us = total = float(e.time_range.elapsed_us())
        o = ops.setdefault(e.name, {"name": e.name[:300], "calls": 0, "self_ms": 0.0, "total_ms": 0.0})
        o["calls"] += 1
        o["self_ms"] += us / 1e3
        o["total_ms"] += total / 1e3
    ranked = sorted(ops.values(), key=lambda o: -o["self_ms"])
    triton, reason = triton_facts(cand)
    facts = {
        "device": "cpu" if device == "cpu" else "cuda",
        "torch_version": torch.__version__,
        "call_ms": call_ms,
        "kind": "cpu_ops" if device == "cpu" else "cuda_kernels",
        "ops": ranked[:MAX_OPS],
        "ops_total": len(ranked),
        "triton": triton,
    }
    if reason:
        facts["triton_reason"] = reason
    sys.stdout.write(MARK + json.dumps(facts) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
