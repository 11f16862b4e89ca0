# The torch facts of an accepted candidate (docs/evaluation.md "Build facts", torch): what one ModelNew call launched
# (torch.profiler: on a cpu the operators by self cpu time, on cuda the kernels by device time) and, for every Triton
# kernel of the candidate's module, its compiled metadata (warps, stages, shared memory, registers, spills) where
# Triton is importable, else why not. Two warm-up calls first (Triton compiles its kernels in the first), then one
# under the profiler. Everything here runs in the candidate's process, after its timed calls, and judges nothing:
# the runner reads what it returns as untrusted (the schema, caps). On a cpu the candidate's own worker runs it once
# its timed phase is over (worker.py's `facts` op); on cuda, and for a run that timed nothing, profile.py's extra run.
import time

MAX_OPS = 40


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


def facts_of(torch, call, device, module):
    """The facts of `call` (one forward on the case's inputs) on `device`, for the candidate's `module`: a dict."""
    from torch.autograd import DeviceType
    from torch.profiler import ProfilerActivity, profile

    def sync():
        if device != "cpu":
            torch.cuda.synchronize()

    with torch.no_grad():
        for _ in range(2):
            call()
        sync()
        activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device != "cpu" else [])
        with profile(activities=activities) as prof:
            t0 = time.perf_counter()
            call()
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
    triton, reason = triton_facts(module)
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
    return facts
