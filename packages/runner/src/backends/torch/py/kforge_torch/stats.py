# The timing statistics the harness applies mid-run: the judge's stopping rules (src/evaluate/judge.ts has them too,
# as c/harness_stats.c does; test/vectors/stats.json checks all three agree).
import math

from .plan import FLAGGED_MIN, FLAGGED_SHARE, T


def quantile(v, q):
    r = q * (len(v) - 1)
    if r <= 0:
        return v[0]
    if r >= len(v) - 1:
        return v[-1]
    k = int(r)
    return v[k] + (r - k) * (v[k + 1] - v[k])


def median_rse(xs):
    """The standard error of the median over the median (the judge's stopping rule, as the C harness has it)."""
    if len(xs) < 2:
        return math.inf
    v = sorted(xs)
    h = 0.5 / math.sqrt(len(v))
    med = quantile(v, 0.5)
    se = (quantile(v, 0.5 + h) - quantile(v, 0.5 - h)) / 2
    return se / med if med > 0 else math.inf


# A timed call that spent more than this share of its window runnable but waiting for a cpu (schedstat) has its pair
# counted as waited (judge.ts RETAKE_WAIT_SHARE, which says how it was chosen), never dropped; 0: not counted (`quick`).
RETAKE = T.get("retake_wait_share", 0)


def speedup_converged(ratios):
    """The 95% interval of the median of the paired ratios (ranks n/2 -+ 1.96 sqrt(n)/2, the judge's
    medianInterval) has at most the plan's half-width over the median; 0 in the plan: no such rule."""
    target = T.get("speedup_half_width", 0)
    if not target:
        return True
    return median_rel_half_width(ratios) <= target


def median_rel_half_width(xs):
    """The half-width of the median's 95% interval over the median (judge.ts relativeHalfWidth); inf under 6 values."""
    n = len(xs)
    if n < 6:
        return math.inf
    v = sorted(xs)
    half = 1.96 * math.sqrt(n) / 2
    lo = max(0, math.floor(n / 2 - half))
    hi = min(n - 1, math.ceil(n / 2 + half) - 1)
    med = quantile(v, 0.5)
    return (v[hi] - v[lo]) / 2 / med if med > 0 else math.inf


def flagged_rejects(flagged, calls):
    """Flagged calls reject at FLAGGED_MIN and over FLAGGED_SHARE of the calls counted (judge.ts flaggedRejects)."""
    return flagged >= FLAGGED_MIN and flagged > FLAGGED_SHARE * calls


def waited_call(dc, dw):
    """A call waited for a cpu more than RETAKE of its window (judge.ts waitedTooLong); a negative delta, a counter
    read across a thread's exit, measures nothing."""
    return RETAKE > 0 and dc >= 0 and dw >= 0 and dc + dw > 0 and dw > RETAKE * (dc + dw)


def wait_share(cpu, wait):
    """A worker's share of its runnable time spent waiting for a cpu; None when nothing was measured."""
    return wait / (cpu + wait) if cpu + wait > 0 else None


def converged(ns):
    return len(ns) >= T["min_samples"] and sum(ns) / 1e6 >= T["min_ms"] and median_rse(ns) <= T["rel_se"]
