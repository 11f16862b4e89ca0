# The correctness checks: an output against the reference's (tolerances per dtype, the judge's RMS rule), inputs
# left unmodified, the plain values a model is built from. Part of the harness, never of a worker.
import ast
import math

import torch

from .plan import ATOL_RMS_SHARE, TOL, Verdict


def half_tolerance(dtype):
    """The tolerance for an output of this dtype: the problem's, and at least KernelBench's 1e-2 for fp16/bf16."""
    if dtype in (torch.float16, torch.bfloat16):
        return max(TOL["atol"], 1e-2), max(TOL["rtol"], 1e-2)
    return TOL["atol"], TOL["rtol"]


def dtype_name(dt):
    return str(dt).replace("torch.", "")


def flat(out):
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (list, tuple)) and all(isinstance(o, torch.Tensor) for o in out):
        return list(out)
    raise Verdict("unsupported", "runtime_error", f"the reference's forward returned a {type(out).__name__}: not supported")


def compare(i, got, want):
    """(passed, max_abs, mean_abs, max_rel, mean_rel, message) for output i."""
    if got.shape != want.shape:
        return False, None, None, None, None, f"output {i} has shape {tuple(got.shape)}, expected {tuple(want.shape)}"
    if not want.is_floating_point():
        ok = torch.equal(got, want)
        return ok, 0.0 if ok else None, 0.0 if ok else None, 0.0, 0.0, None if ok else f"output {i} differs"
    g, w = got.double(), want.double()
    gn, wn = torch.isnan(g), torch.isnan(w)
    if not torch.equal(gn, wn):
        idx = torch.nonzero(gn != wn)[0].tolist()
        return False, None, None, None, None, f"output {i}{idx} is {g[tuple(idx)].item()} (expected {w[tuple(idx)].item()})"
    gi, wi = torch.isinf(g), torch.isinf(w)
    if not torch.equal(gi, wi) or not torch.equal(g[gi], w[wi]):
        idx = torch.nonzero((gi != wi) | (gi & (g != w)))
        idx = idx[0].tolist() if len(idx) else []
        return False, None, None, None, None, f"output {i}{idx}: inf mismatch"
    fin = ~(gn | gi)
    if not bool(fin.any()):
        return True, 0.0, 0.0, 0.0, 0.0, None
    d = (g - w).abs()
    d = torch.where(fin, d, torch.zeros_like(d))
    rel = d / w.abs().clamp_min(1e-30)
    rel = torch.where(fin, rel, torch.zeros_like(rel))
    # The absolute tolerance is at most a share of the reference output's RMS (the judge's rule): outputs of zeros
    # never pass against a reference whose values are all small; an honest reordered sum's error scales with them.
    rms = math.sqrt(float((torch.where(fin, w, torch.zeros_like(w)) ** 2).sum()) / max(1, int(fin.sum())))
    tol_a, tol_r = half_tolerance(got.dtype)
    atol = min(tol_a, ATOL_RMS_SHARE * rms) if rms > 0 else tol_a
    bad = d > atol + tol_r * w.abs()
    bad &= fin
    stats = (d.max().item(), d.mean().item(), rel.max().item(), rel.mean().item())
    if bool(bad.any()):
        idx = torch.nonzero(bad)[0].tolist()
        t = tuple(idx)
        return (False, *stats, f"output {i}{idx} = {g[t].item():.6g} (expected {w[t].item():.6g}, "
                f"max abs error {stats[0]:.3g}, tolerance atol={atol:.3g} rtol={tol_r:g})")
    return (True, *stats, None)


def close_all(gots, wants):
    """Whether every output passes compare()'s rule, without its statistics: the timed loop's check of every timed
    call. A few float32 passes per output instead of compare()'s float64 copies and masks, which took 1.7 s per
    sample on a ranked-size output and left the 30 s budget 11 samples (now about 0.1 s). Conservative: the fast
    rule's tolerances are a millionth tighter than compare()'s, more than float32 rounding can move either side, so
    what passes here passes there. Anything else (other shapes or dtypes, a reference output that is not all
    finite, a NaN, any element over the line) goes to compare_all, whose verdict stands."""
    for g, w in zip(gots, wants):
        if g.shape != w.shape or g.dtype != w.dtype or w.dtype not in (torch.float32, torch.float16, torch.bfloat16):
            return compare_all(gots, wants)[0]
        if w.numel() == 0:
            continue
        g32, w32 = g.float(), w.float()
        norm = float(torch.linalg.vector_norm(w32))
        if not math.isfinite(norm):
            return compare_all(gots, wants)[0]
        rms = norm / math.sqrt(w32.numel())
        tol_a, tol_r = half_tolerance(w.dtype)
        atol = min(tol_a, ATOL_RMS_SHARE * rms * (1 - 1e-4)) if rms > 0 else tol_a
        d = torch.sub(g32, w32)
        d.abs_()
        lim = w32.abs()
        lim.mul_(tol_r * (1 - 1e-6)).add_(atol * (1 - 1e-6))
        # A NaN anywhere compares false: compare_all then says whether it was expected.
        if not bool(torch.le(d, lim).all()):
            return compare_all(gots, wants)[0]
    return True


def compare_all(gots, wants):
    res = [compare(i, g, w) for i, (g, w) in enumerate(zip(gots, wants))]
    ok = all(r[0] for r in res)
    num = lambda k: max((r[k] for r in res if r[k] is not None), default=None)  # noqa: E731
    msg = next((r[5] for r in res if r[5]), None)
    return ok, num(1), num(2), num(3), num(4), msg


def check_inputs(views, private, names):
    for k, (v, p) in enumerate(zip(views, private)):
        if v is not None and isinstance(p, torch.Tensor) and not torch.equal(v, p):
            raise Verdict("wrote_input", "incorrect", f"input {names[k]} was modified")


def literal(v):
    r = repr(v)
    try:
        if ast.literal_eval(r) == v:
            return r
    except (ValueError, SyntaxError):
        pass
    raise Verdict("unsupported", "runtime_error", f"get_init_inputs() returned a {type(v).__name__} ({r[:80]}): only plain values")


def input_names(inputs):
    return [f"{k}" for k in range(len(inputs))]
