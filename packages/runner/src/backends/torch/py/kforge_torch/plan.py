# The torch harness's plan (the JSON file its command line names, read once at import) and the settings of the run
# it implies: the core budget, the candidate's cpu and time limits, the device, the progress file, and the failure
# (Verdict) every part of the harness raises. Part of the harness (harness.py), never of a worker.
import json
import os
import sys
import time

import torch

from .procfs import core_budget


PLAN = json.load(open(sys.argv[1], encoding="utf-8"))
T = PLAN["timing"]
TOL = PLAN["tolerance"]
THREADS = PLAN["threads"]
_ALLOWED_AT_START = len(os.sched_getaffinity(0))
BUDGET = core_budget()
BUDGET_NARROW = len(BUDGET) < _ALLOWED_AT_START
BUDGET_RESETS = [0]


def keep_budget(pid):
    """The C harness's kfh_keep_budget: after a timed call of the candidate, outside its window, a thread of its
    worker whose cpus reach outside a narrowed budget is set back to the part of them inside it (all of the budget
    when none is) and counted (load.budget_resets: the judge flags the result for review). sched_setaffinity is not
    denied to workers (a kernel may place its own threads), so a candidate could otherwise widen itself onto the
    busy cores the baseline did not get."""
    if not BUDGET_NARROW:
        return
    budget = set(BUDGET)
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return
    for t in tids:
        try:
            mask = os.sched_getaffinity(int(t))
            if mask <= budget:
                continue
            os.sched_setaffinity(int(t), (mask & budget) or budget)
        except (OSError, ValueError):
            continue
        BUDGET_RESETS[0] += 1  # counted either way: the call ran outside the budget


if len(BUDGET) < THREADS:
    # The workers size their thread pools to the budget (the launch line names their threads).
    THREADS = len(BUDGET)
    for _argv in PLAN["launch"].values():
        if isinstance(_argv, list) and "--threads" in _argv:
            _argv[_argv.index("--threads") + 1] = str(THREADS)
# Work after return (issue 31; the C harness's rules, c/harness_worker.c): cpu is the worker PROCESS's, ended threads
# included, read from outside (proc_cpu). A candidate call is flagged when its process used more than AFTER_REPLY_NS
# of cpu between the reply and the moment it was quiet again, when a thread was started after the reply, or when
# the call's cpu (command to quiet) exceeds its wall time on every core of the budget plus AFTER_REPLY_NS; more than
# BETWEEN_CALLS_NS between that quiet moment and the next command (or the end of the run), or a thread started or
# ended in between, is rejected at once.
AFTER_REPLY_NS = int(PLAN.get("after_reply_cpu_ms", 0.5) * 1e6)
LIMITS = PLAN.get("limits") or {}
BETWEEN_CALLS_NS = int(LIMITS.get("between_calls_cpu_ms", 0.1) * 1e6)
SOCK_FD, SECCOMP_FD = 11, 10
WARM_CALLS = 3
# The judge's rules this harness applies mid-run (src/evaluate/judge.ts owns them; docs/evaluation.md): a candidate
# is rejected once flagged calls are at least FLAGGED_MIN and over FLAGGED_SHARE of its calls; the outside load is
# watched for at least LOAD_WINDOW_MS; the absolute tolerance is at most ATOL_RMS_SHARE of the reference's RMS.
RULES = PLAN["rules"]
FLAGGED_MIN = RULES["flagged_min"]
FLAGGED_SHARE = RULES["flagged_share"]
LOAD_WINDOW_MS = RULES["load_window_ms"]
ATOL_RMS_SHARE = RULES["atol_rms_share"]
QUIET_LIMIT_S = 1.0
# The candidate's time limits (issue 31: a forward() that sleeps held the runner for minutes). A call may take the
# larger of CALL_FLOOR_S and REF_MULTIPLE x the reference's time on its case (the harness's own runs of the reference
# and the eager baseline's calls, median), a model build (constructor and two warm-up calls) the larger of
# INIT_FLOOR_S and REF_MULTIPLE x the reference's build and two calls; all the candidate's calls and builds together
# the larger of TOTAL_FLOOR_S and REF_MULTIPLE x the reference's time for the same work. The plan's call_timeout_s and
# start_timeout_s still bound every call and build. Past a limit: `timeout`, naming it.
CALL_FLOOR_S = LIMITS.get("call_floor_s", 1.0)
INIT_FLOOR_S = LIMITS.get("init_floor_s", 10.0)
TOTAL_FLOOR_S = LIMITS.get("total_floor_s", 20.0)
REF_MULTIPLE = LIMITS.get("ref_multiple", 50.0)
# Keep fds 10 and 11 taken (by /dev/null) so no socket or file of ours ever gets those numbers: a worker's
# socket end and the seccomp program are put there for each spawn, then /dev/null again.
_DEVNULL = os.open("/dev/null", os.O_RDONLY)
for _fd in (SECCOMP_FD, SOCK_FD):
    os.dup2(_DEVNULL, _fd, inheritable=False)
torch.set_num_threads(THREADS)
# The device the reference, the baselines and the candidate run on (the plan's; cuda: docs/evaluation.md, "PyTorch on
# a GPU"). Staged: each call is a prepare (inputs to the device), a timed run and a fetch (outputs back), the cuda
# worker's protocol; on the cpu only when the plan asks (tests of that logic without a GPU).
DEVICE = PLAN.get("device", "cpu")
STAGED = bool(PLAN.get("staged")) or DEVICE != "cpu"
NOP_CALLS = 33
# The round trip of a staged call without the call (the median of NOP_CALLS `nop`s of the eager baseline's worker,
# per case): subtracted from every staged call's round trip, candidate's and baselines' alike. The baseline's, so the
# candidate cannot make it longer (and its own times shorter). The median, not the fastest: the figures are medians
# of round trips, and the fastest no-op would leave the round trip's typical jitter in every time (a few
# microseconds, a tenth of a 50 us kernel's).
NOP_NS = [0]
if DEVICE != "cpu":
    # TF32 off for the reference and the baselines (the precision policy, docs/evaluation.md).
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
SOURCE = open(PLAN["source_path"], encoding="utf-8").read()
FILE_NAME = PLAN["file_name"]
PROFILE = {}
# The progress file the runner shows while this runs (src/evaluate/progress.ts): rewritten whole (a temporary file
# renamed over it) at most a few times a second, only between calls, never inside a timed window. Informational only.
PROGRESS_PATH = PLAN.get("progress_path")
PROGRESS_EVERY_S = 0.25
_PROGRESS = {"key": None, "at": 0.0}


def progress(stage, case_index, case_count, samples, force=False):
    if not PROGRESS_PATH:
        return
    now = time.monotonic()
    key = (stage, case_index)
    if key == _PROGRESS["key"] and not force and now - _PROGRESS["at"] < PROGRESS_EVERY_S:
        return
    _PROGRESS["key"], _PROGRESS["at"] = key, now
    body = json.dumps({"stage": stage, "case_index": case_index, "case_count": case_count, "samples": samples})
    tmp = PROGRESS_PATH + ".tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(body + "\n")
        os.rename(tmp, PROGRESS_PATH)
    except OSError:
        pass


class Verdict(Exception):
    """A failure seen: the fact (a code of the judge's table, src/evaluate/judge/facts.ts, which decides the verdict)
    and its message. `verdict` is the harness's own reading of the fact, reported beside it as a cross-check only: the
    judge calls a report whose verdict is not its fact's a runtime_error."""

    def __init__(self, fact, verdict, message):
        super().__init__(message)
        self.fact = fact
        self.verdict = verdict
        self.message = message
