# The torch harness: trusted code that never imports a candidate. It runs the problem file's reference itself
# (in its own sandbox: the file may come from an operator's folder), makes the inputs from seeded get_inputs(),
# shares them with the sandboxed workers through memfds it creates and seals, checks every output, and takes
# every time that counts from outside the workers' processes (the round trip over a socket).
# The entry (python -c 'from kforge_torch.harness import main; main()' PLAN.json, /w on sys.path; its parts are the
# package's plan, procfs, checks, stats, workers, reference, correctness and timing modules): prints one JSON report
# on stdout. fd 3/4: the candidate's stdout/stderr;
# fd 5 (when the plan says so): the device's host-wide timing lock.
import json
import platform
import time

_T_TORCH = time.monotonic()
import torch  # noqa: E402 - timed: the candidate's start-up is bounded against it

TORCH_IMPORT_S = time.monotonic() - _T_TORCH

from .correctness import correctness
from .plan import PLAN, PROFILE, Verdict
from .timing import benchmark, start_baselines
from .workers import Worker, import_limit_s


FACTS_MAX_CHARS = 256 * 1024


def gather_facts(cand, report):
    """The candidate's torch facts (facts.py), from its own worker once the timed phase is over (the timing lock is
    released by then): instead of a run of profile.py, which started Python, torch and the model again (2-4 s a
    candidate on a busy 2-core VM). They are the candidate's process's word and judge nothing: kept as the JSON the
    runner checks against its schema (`facts`), or why there are none (`facts_error`). A worker that fails or hangs
    here changes no verdict."""
    try:
        cand.send({"op": "facts"})
        r = cand.recv(PLAN.get("facts_timeout_s", 90), "gathering its torch facts")
        if r.get("op") == "error":
            report["facts_error"] = f"the profiled call failed: {r.get('message', '')}"[:500]
            return
        line = json.dumps(r.get("facts"))
        if len(line) > FACTS_MAX_CHARS:
            report["facts_error"] = f"the facts were {len(line)} characters, over {FACTS_MAX_CHARS}"
            return
        report["facts"] = line
    except Verdict as v:
        report["facts_error"] = v.message[:500]
    except Exception as e:  # noqa: BLE001 - facts never change a verdict
        report["facts_error"] = f"{type(e).__name__}: {e}"[:500]


def main():
    report = {"verdict": "accepted", "message": "", "correctness": [], "bench": [], "profile": PROFILE,
              "toolchains": {"python": platform.python_version(), "torch": torch.__version__}}
    cand = None
    early = {}
    try:
        t0 = time.monotonic()
        cand = Worker("candidate", wait=False)
        # Importing the file is the candidate's too: bounded like a model build, against this process's own import of
        # torch (the worker imports torch, then the file). Before brief R only the 120 s start timeout bounded it, and
        # a file that slept at import held the runner about two minutes per timed run (torch-cheats/sleep_at_import.py).
        cand.started(import_limit_s(TORCH_IMPORT_S))
        PROFILE["start_ms"] = (time.monotonic() - t0) * 1000
        early = start_baselines()
        t0 = time.monotonic()
        correctness(cand, report)
        PROFILE["correctness_ms"] = (time.monotonic() - t0) * 1000
        t0 = time.monotonic()
        benchmark(cand, report, early)
        PROFILE["benchmark_ms"] = (time.monotonic() - t0) * 1000
        if PLAN.get("facts") and report["bench"]:
            t0 = time.monotonic()
            gather_facts(cand, report)
            PROFILE["facts_ms"] = (time.monotonic() - t0) * 1000
    except Verdict as v:
        report["fact"] = v.fact
        report["verdict"] = v.verdict
        report["message"] = v.message if v.message.startswith(v.verdict) else f"{v.verdict}: {v.message}"
    finally:
        if cand is not None:
            cand.kill()
        for w in early.values():
            w.kill()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
