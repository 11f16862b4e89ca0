"""Runs the PyTorch harness's statistics (src/backends/torch/py/kforge_torch/stats.py) on the shared vectors (test/vectors/stats.json).

The harness reads its plan (kforge_torch/plan.py) when it is loaded, so the functions under test are taken from its
source as they are (ast) and run with the globals they read (T, FLAGGED_MIN, FLAGGED_SHARE, RETAKE) set per vector.
Prints every disagreement and exits 1 if there is one; run by test/stats-vectors.test.ts.
"""
import ast
import json
import math
import sys

HARNESS, VECTORS = sys.argv[1], sys.argv[2]
NAMES = {"quantile", "median_rse", "median_rel_half_width", "speedup_converged", "converged", "flagged_rejects",
         "waited_call", "wait_share"}

tree = ast.parse(open(HARNESS).read())
found = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in NAMES]
missing = NAMES - {n.name for n in found}
if missing:
    print(f"not in the harness: {sorted(missing)}")
    sys.exit(1)
ns = {"math": math}
exec(compile(ast.Module(body=found, type_ignores=[]), HARNESS, "exec"), ns)


def same(got, want):
    if want is None or isinstance(want, bool):
        return got is want or (isinstance(got, bool) and got == want)
    if want == "inf":
        return got == math.inf
    if got is None or isinstance(got, bool) or not math.isfinite(got):
        return False
    return got == want or abs(got - want) <= 1e-12 * max(abs(got), abs(want))


v = json.load(open(VECTORS))
bad = []
checked = 0


def check(kind, i, got, want):
    global checked
    checked += 1
    if not same(got, want):
        bad.append(f"{kind}[{i}]: got {got!r}, expected {want!r}")


for i, t in enumerate(v["quantile"]):
    check("quantile", i, ns["quantile"](t["sorted"], t["q"]), t["expected"])
for i, t in enumerate(v["median_rse"]):
    check("median_rse", i, ns["median_rse"](t["xs"]), t["expected"])
for i, t in enumerate(v["median_rel_half_width"]):
    check("median_rel_half_width", i, ns["median_rel_half_width"](t["xs"]), t["expected"])
for i, t in enumerate(v["converged"]):
    ns["T"] = {"min_samples": t["min_samples"], "min_ms": t["min_ms"], "rel_se": t["target_rse"]}
    # The torch harness keeps its samples in ns.
    check("converged", i, bool(ns["converged"]([x * 1e6 for x in t["xs_ms"]])), t["expected"])
for i, t in enumerate(v["speedup_converged"]):
    ns["T"] = {"speedup_half_width": t["half_width"]}
    check("speedup_converged", i, bool(ns["speedup_converged"](t["ratios"])), t["expected"])
for i, t in enumerate(v["flagged_rejects"]):
    ns["FLAGGED_MIN"], ns["FLAGGED_SHARE"] = t["min"], t["share"]
    check("flagged_rejects", i, bool(ns["flagged_rejects"](t["flagged"], t["calls"])), t["expected"])
for i, t in enumerate(v["waited"]):
    ns["RETAKE"] = t["share"]
    check("waited", i, bool(ns["waited_call"](t["cpu"], t["wait"])), t["expected"])
for i, t in enumerate(v["wait_share"]):
    check("wait_share", i, ns["wait_share"](t["cpu"], t["wait"]), t["expected"])

for b in bad:
    print(b)
print(f"{checked} vectors, {len(bad)} disagreements")
sys.exit(1 if bad else 0)
