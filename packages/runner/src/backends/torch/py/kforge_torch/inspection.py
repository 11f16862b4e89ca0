# Inspects KernelBench-format problem files: their integer constants, and the sizes that fit each device's
# budget. Runs inside a sandbox (bwrap: no network, rlimits) because an operator's folder may hold anything.
# Reads a JSON request on stdin: {"files": [{"id", "path", "name"}], "budgets": {"cpu": bytes, ...},
# "test_budgets": [bytes, ...]}; writes one line per event on stdout: `start <id>` then `result <json>`.
import ast
import json
import signal
import sys
import traceback

import torch

from .common import FROZEN_NAME_HINTS, SCALE_FLOOR, SCALE_MIN, int_constants, load_module, split_chained
from .common import tolerance_of

FACTORIES = (
    "randn", "rand", "randint", "zeros", "ones", "empty", "full", "arange", "linspace", "eye", "randperm",
    "normal", "randn_like", "rand_like", "zeros_like", "ones_like", "empty_like", "full_like", "randint_like",
)


class Meta:
    """Makes torch's factory functions build meta tensors (shapes without memory) while active."""

    def __enter__(self):
        self.saved = {}
        for name in FACTORIES:
            f = getattr(torch, name, None)
            if f is None:
                continue
            self.saved[name] = f

            def wrapped(*a, _f=f, _like=name.endswith("_like"), **k):
                if not _like or "device" not in k:
                    k["device"] = "meta"
                k.pop("generator", None)
                return _f(*a, **k)

            setattr(torch, name, wrapped)
        return self

    def __exit__(self, *exc):
        for name, f in self.saved.items():
            setattr(torch, name, f)


def describe(v):
    if isinstance(v, torch.Tensor):
        return {"type": "tensor", "shape": list(v.shape), "dtype": str(v.dtype).replace("torch.", "")}
    r = repr(v)
    return {"type": type(v).__name__, "repr": r if len(r) <= 200 else r[:200] + "..."}


def tensor_bytes(vs):
    return sum(v.numel() * v.element_size() for v in vs if isinstance(v, torch.Tensor))


def flat_outputs(out):
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (list, tuple)):
        return [o for o in out if isinstance(o, torch.Tensor)]
    return []


def output_stats(outs):
    """Per output tensor: element count, mean, standard deviation, RMS (in float64) and whether all are finite."""
    stats = []
    for o in outs:
        v = o.detach().reshape(-1)
        v = (v.abs() if v.is_complex() else v).double()
        finite = bool(torch.isfinite(v).all()) if v.numel() else True
        n = v.numel()
        mean = float(v.mean()) if n else 0.0
        std = float(v.std(unbiased=False)) if n else 0.0
        rms = float(v.pow(2).mean().sqrt()) if n else 0.0
        stats.append({"numel": n, "mean": mean, "std": std, "rms": rms, "finite": finite})
    return stats


def measure(source, file_name, consts, real=False, stats=None):
    """(bytes, case description) at these constants; raises when the model cannot be built or run. With `stats`
    (a list) and a real run, appends the outputs' statistics (output_stats)."""
    mod = load_module(source, file_name, consts)
    ctx = Meta() if not real else None
    if ctx:
        ctx.__enter__()
    try:
        torch.manual_seed(0)
        init = list(mod.get_init_inputs())
        torch.manual_seed(1)
        inputs = list(mod.get_inputs())
        torch.manual_seed(2)
        model = mod.Model(*init)
        state = list(model.state_dict().values())
        out_known = True
        try:
            with torch.no_grad():
                outs = flat_outputs(model(*inputs))
        except Exception:
            if real:
                raise
            outs, out_known = [], False
    finally:
        if ctx:
            ctx.__exit__(None, None, None)
    if real and stats is not None:
        stats.extend(output_stats(outs))
    total = tensor_bytes(inputs) + tensor_bytes(state) + tensor_bytes(outs)
    case = {
        "constants": dict(consts),
        "inputs": [describe(v) for v in inputs],
        "init_inputs": [describe(v) for v in init],
        "outputs": [describe(v) for v in outs],
        "bytes": total,
    }
    return total, case, out_known


def fit(source, file_name, start, scalable, budget, note):
    """Halves scalable constants (largest first) until the case fits `budget`; a halving that breaks the model
    freezes that constant. Returns (constants, case, fits)."""
    consts = dict(start)
    frozen = set()
    total, case, out_known = measure(source, file_name, consts)
    if not out_known:
        # The meta device cannot run this forward: count the outputs as big as the inputs until a real run says.
        total += case["bytes"]
    steps = 0
    while total > budget and steps < 200:
        steps += 1
        options = [n for n in scalable if n not in frozen and consts[n] // 2 >= SCALE_FLOOR]
        if not options:
            break
        name = max(options, key=lambda n: consts[n])
        trial = dict(consts)
        trial[name] = consts[name] // 2
        try:
            t, c, k = measure(source, file_name, trial)
        except Exception as e:  # noqa: BLE001 - any failure means this constant must keep its relation
            frozen.add(name)
            note.append(f"{name} kept at {consts[name]} ({type(e).__name__}: {str(e)[:120]})")
            continue
        consts, total, case, out_known = trial, t, c, k
        if not out_known:
            total += case["bytes"]
    if not out_known:
        # Verify (and learn the outputs) by running it for real at sizes that fit.
        total, case, _ = measure(source, file_name, consts, real=True)
    return consts, case, total <= budget


def inspect(entry, budgets, test_budgets):
    source = open(entry["path"], encoding="utf-8").read()
    file_name = entry["name"]
    tree = split_chained(ast.parse(source, filename=file_name))
    constants = int_constants(tree)
    scalable = [
        n for n, v in constants.items() if v >= SCALE_MIN and not any(h in n.lower() for h in FROZEN_NAME_HINTS)
    ]
    note = []
    if not constants:
        note.append("no module-level integer constants: it runs at its own sizes")
    elif not scalable:
        note.append(f"no constant is {SCALE_MIN} or more (none is scaled)")
    # The file as written must at least build (meta device: no memory).
    measure(source, file_name, constants)
    sizes = {}
    # The reference's outputs on its seeded inputs at each test size (first device kind): `problems check` warns
    # when they are near-constant or near zero, where a constant or all-zero answer could pass the tolerance.
    reference_outputs = []
    for kind, budget in budgets.items():
        consts, case, fits = fit(source, file_name, constants, scalable, budget, note)
        tests = []
        start = consts
        for i, tb in enumerate(test_budgets):
            tc, tcase, _ = fit(source, file_name, start, scalable, tb, [])
            # Test cases are run for real: check that they do.
            stats = [] if not sizes else None
            _, tcase, _ = measure(source, file_name, tc, real=True, stats=stats)
            tcase["name"] = f"test{i}"
            if stats is not None:
                reference_outputs.append({"case": tcase["name"], "outputs": stats})
            if not any(t["constants"] == tcase["constants"] for t in tests):
                tests.append(tcase)
            start = tc
        tests.reverse()  # smallest first
        case["name"] = "bench"
        sizes[kind] = {"budget_bytes": budget, "constants": consts, "test": tests, "benchmark": [case], "fits": fits}
        if not fits:
            note.append(f"{kind}: {case['bytes']} bytes at the smallest sizes found, over the {budget}-byte budget")
    changed = sorted({n for s in sizes.values() for n in s["constants"] if s["constants"][n] != constants[n]})
    if changed:
        note.insert(0, "scaled by halving " + ", ".join(changed) + " until inputs, outputs and parameters fit")
    elif constants and scalable:
        note.insert(0, "fits at the sizes as written")
    return {
        "constants": constants,
        "scalable_constants": scalable,
        "scalable": bool(scalable),
        "scaling_note": "; ".join(note)[:2000],
        "sizes": sizes,
        "tolerance": tolerance_of(source),
        "reference_outputs": reference_outputs,
    }


class Timeout(Exception):
    pass


def on_alarm(*_):
    raise Timeout("inspection took too long")


def main():
    if len(sys.argv) > 1:
        with open(sys.argv[1], encoding="utf-8") as f:
            req = json.load(f)
    else:
        req = json.load(sys.stdin)
    torch.set_num_threads(1)
    signal.signal(signal.SIGALRM, on_alarm)
    for entry in req["files"]:
        print(f"start {entry['id']}", flush=True)
        signal.alarm(int(req.get("per_file_seconds", 60)))
        try:
            res = {"id": entry["id"], "ok": True, "info": inspect(entry, req["budgets"], req["test_budgets"])}
        except BaseException as e:  # noqa: BLE001 - one broken file must not stop the others
            if isinstance(e, KeyboardInterrupt):
                raise
            tb = traceback.format_exc(limit=-3)
            res = {"id": entry["id"], "ok": False, "error": f"{type(e).__name__}: {e}"[:1500], "trace": tb[-3000:]}
        finally:
            signal.alarm(0)
        print("result " + json.dumps(res), flush=True)


if __name__ == "__main__":
    main()
