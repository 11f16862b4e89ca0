# The correctness phase: every test case, seed and distribution through the candidate's worker, its outputs
# compared, checked unchanged after return, and called again for determinism.
import os
import time

import torch

from .checks import check_inputs, compare_all, input_names
from .plan import PLAN, progress, Verdict
from .reference import distributions, Problem
from .workers import Shared


def correctness(cand, report):
    cases = PLAN["cases"]["test"]
    for ci, c in enumerate(cases):
        progress("correctness", ci + 1, len(cases), 0)
        p = Problem(c["constants"], c["name"])
        probe = p.inputs(PLAN["seeds"][0], "as_written")
        shared = Shared(p.params, probe, p.expected(probe))
        cand.init(shared.message(p.init_args, p.ctor_seed), shared.fd, p.build_ref_s(), c["name"])
        os.close(shared.fd)
        names = input_names(probe)
        for seed in PLAN["seeds"]:
            for dist in distributions(p, seed):
                xs = p.inputs(seed, dist)
                want = p.expected(xs)
                entry = {"name": c["name"], "sizes": c["constants"], "seed": seed, "distribution": dist}
                shared.write_inputs(xs)
                shared.nan_outputs()
                cand.call(p.ref_s(), c["name"])
                try:
                    check_inputs(shared.input_views, xs, names)
                except Verdict as v:
                    report["correctness"].append(dict(entry, passed=False, max_abs_error=None, mean_abs_error=None,
                                                      max_rel_error=None, mean_rel_error=None, message=v.message))
                    raise
                got = [o.clone() for o in shared.output_views]
                ok, ma, me, mr, mre, msg = compare_all(got, want)
                report["correctness"].append(dict(entry, passed=ok, max_abs_error=ma, mean_abs_error=me,
                                                  max_rel_error=mr, mean_rel_error=mre,
                                                  **({"message": msg} if msg else {})))
                if not ok:
                    # No seed in a message: a ranked seed is the submission's secret (the row carries it, and the
                    # runner drops it from ranked reports).
                    raise Verdict("outputs_differ", "incorrect", f"incorrect: case {c['name']} ({dist}): {msg}")
                # Work left running after return: the outputs must not change, nor the worker use cpu.
                time.sleep(0.002)
                for g, v in zip(got, shared.output_views):
                    if not torch.equal(g.nan_to_num(), v.nan_to_num()) or not torch.equal(torch.isnan(g), torch.isnan(v)):
                        raise Verdict("outputs_changed_after_return", "rejected", f"rejected: the outputs changed after forward() returned (case {c['name']})")
                cand.before_call()
                # The same inputs again: a different result is caching by identity (wrong) or nondeterminism.
                shared.write_inputs(xs)
                shared.nan_outputs()
                cand.call(p.ref_s(), c["name"])
                again = [o.clone() for o in shared.output_views]
                if not all(torch.equal(a, b) for a, b in zip(again, got)):
                    ok2, *_rest, msg2 = compare_all(again, want)
                    if not ok2:
                        raise Verdict("outputs_differ", "incorrect", f"incorrect: a second call on the same inputs was wrong: {msg2}")
                    raise Verdict("nondeterministic", "nondeterministic", f"nondeterministic: the same inputs gave different bits (case {c['name']})")
