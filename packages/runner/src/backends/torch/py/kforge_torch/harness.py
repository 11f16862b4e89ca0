# The torch harness: trusted code that never imports a candidate. It runs the problem file's reference itself
# (in its own sandbox: the file may come from an operator's folder), makes the inputs from seeded get_inputs(),
# shares them with the sandboxed workers through memfds it creates and seals, checks every output, and takes
# every time that counts from outside the workers' processes (the round trip over a socket).
# Usage: kf_torch_harness.py PLAN.json; prints one JSON report on stdout. fd 3/4: the candidate's stdout/stderr;
# fd 5 (when the plan says so): the device's host-wide timing lock.
import ast
import fcntl
import json
import math
import os
import platform
import resource
import secrets
import signal
import socket
import subprocess
import sys
import time

import torch

from kf_torch_common import load_module

PLAN = json.load(open(sys.argv[1], encoding="utf-8"))
T = PLAN["timing"]
TOL = PLAN["tolerance"]
THREADS = PLAN["threads"]


def core_budget(probe_s=0.05):
    """The core budget (c/harness_budget.c has the same rule): the cpus free now, read from /proc/stat's per-cpu
    counters twice, probe_s apart, while this process sleeps; a cpu is free when busy under half that window. The
    harness confines itself to them and every worker it starts inherits that; a candidate that moves its threads
    outside it is set back after each call (keep_budget). None free, or all: every allowed cpu."""

    def ticks():
        out = {}
        with open("/proc/stat") as f:
            for line in f:
                if not line.startswith("cpu"):
                    break
                name, *v = line.split()
                if name == "cpu" or len(v) < 4:
                    continue
                v = [int(x) for x in v[:8]] + [0] * (8 - min(8, len(v)))
                busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7]
                out[int(name[3:])] = (busy, busy + v[3] + v[4])
        return out

    allowed = os.sched_getaffinity(0)
    try:
        a = ticks()
        time.sleep(probe_s)
        b = ticks()
        free = set()
        for c in allowed:
            if c in a and c in b:
                busy, total = b[c][0] - a[c][0], b[c][1] - a[c][1]
                if total == 0 or busy * 2 < total:
                    free.add(c)
        if 0 < len(free) < len(allowed):
            os.sched_setaffinity(0, free)
            allowed = free
    except (OSError, ValueError):
        pass
    return sorted(allowed)


def cpu_list(cpus):
    parts, i = [], 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        parts.append(str(cpus[i]) if i == j else f"{cpus[i]}-{cpus[j]}")
        i = j + 1
    return ",".join(parts)


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


def half_tolerance(dtype):
    """The tolerance for an output of this dtype: the problem's, and at least KernelBench's 1e-2 for fp16/bf16."""
    if dtype in (torch.float16, torch.bfloat16):
        return max(TOL["atol"], 1e-2), max(TOL["rtol"], 1e-2)
    return TOL["atol"], TOL["rtol"]


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


def dtype_name(dt):
    return str(dt).replace("torch.", "")


def proc_cpu(pid):
    """The worker process's cpu time (ns): all its threads, ENDED ONES INCLUDED, read from outside through its
    process cpu clock (clock_gettime on CPUCLOCK_SCHED of the pid, process-wide: clockid ((~pid) << 3) | 2; Linux
    lets any process read it for a pid it can see, across the sandbox's pid namespace). Exact while none of its
    threads is on a cpu (a running thread's share lags by up to a scheduler tick). None when the process is gone.
    Before issue 31 the harness summed the cpu of the threads alive at each reading: a thread born after one
    reading and gone by the next was never counted."""
    try:
        return time.clock_gettime_ns(((~pid) << 3) | 2)
    except OSError:
        return None


def tids_of(pid):
    try:
        return set(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return set()


def thread_cpu(pid):
    """{tid: cpu ns} of the threads alive now (schedstat): only to name the busiest in a message."""
    out = {}
    for t in tids_of(pid):
        try:
            with open(f"/proc/{pid}/task/{t}/schedstat") as f:
                out[t] = int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return out


def sched_of(pid):
    """(cpu ns, ns runnable but waiting for a cpu) summed over pid's threads (schedstat's first two fields)."""
    cpu = wait = 0
    try:
        for t in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{t}/schedstat") as f:
                    fields = f.read().split()
                cpu += int(fields[0])
                wait += int(fields[1])
            except (OSError, IndexError, ValueError):
                pass
    except OSError:
        pass
    return cpu, wait


SCHED = {"candidate": [0, 0], "baseline": [0, 0]}
RETAKEN = [0, 0]  # pairs taken again (none since issue 31); pairs one of whose calls waited for a cpu (counted, kept)


def runnable(pid):
    """How many threads of pid are running or waiting for a core, or in uninterruptible sleep (state R or D): any
    is not quiet."""
    n = 0
    try:
        for t in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{t}/stat") as f:
                    n += f.read().rsplit(")", 1)[1].split()[0] in ("R", "D")
            except (OSError, IndexError):
                pass
    except OSError:
        pass
    return n


def comm(pid, tid):
    try:
        with open(f"/proc/{pid}/task/{tid}/comm") as f:
            return f.read().strip()
    except OSError:
        return "?"


# The reference's time per case (s): the harness's own runs of the reference (correctness) and the eager baseline's
# timed calls; the candidate's deadlines are multiples of their median (CandidateClock).
REF_TIMES = {}


def ref_time(name):
    v = sorted(REF_TIMES.get(name) or [0.0])
    return v[len(v) // 2]


class CandidateClock:
    """The candidate's wall time in calls and model builds, against its limits (CALL_FLOOR_S etc.). Every figure is
    the harness's: the reference's times are its own, the candidate's are round trips measured from outside."""

    def __init__(self):
        self.spent = 0.0  # s in calls and builds
        self.ref = 0.0  # the reference's time for the same work, s

    def deadline(self, kind, ref_s, case, cap):
        """(seconds, message if it runs past them) for the next call ('call') or model build ('build')."""
        floor = CALL_FLOOR_S if kind == "call" else INIT_FLOOR_S
        own = max(floor, REF_MULTIPLE * ref_s)
        total = max(TOTAL_FLOOR_S, REF_MULTIPLE * (self.ref + ref_s))
        left = max(0.001, total - self.spent)
        what = "forward()" if kind == "call" else "building the model (its constructor and two warm-up calls)"
        ref_what = "the reference's" if kind == "call" else "the reference's build and two calls,"
        if left < min(own, cap):
            return left, (
                f"timeout: the candidate's calls and model builds ran past the evaluation's limit of {total:.1f} s in "
                f"all (the larger of {TOTAL_FLOOR_S:g} s and {REF_MULTIPLE:g}x the reference's {self.ref + ref_s:.3f} "
                f"s for the same work; {self.spent:.1f} s before this {'call' if kind == 'call' else 'build'})"
            )
        if own <= cap:
            return own, (
                f"timeout: {what} ran past its {own:.3g} s limit on case {case} (the larger of {floor:g} s and "
                f"{REF_MULTIPLE:g}x {ref_what} {ref_s * 1000:.3g} ms)"
            )
        return cap, f"timeout: {what} ran past its {cap:g} s deadline on case {case}"

    def add(self, seconds, ref_s):
        self.spent += seconds
        self.ref += ref_s


CLOCK = CandidateClock()
FLAGS = {"calls": 0, "flagged": 0}  # the candidate's calls and flagged calls over the whole run (the C harness's `all`)


class Worker:
    """One sandboxed worker process (candidate, eager baseline or compiled baseline)."""

    def __init__(self, role, wait=True):
        """Starts the worker; with wait=False its hello is read later (started()), so the baselines import torch
        while the candidate is checked."""
        self.role = role
        self.sock, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        os.dup2(child.fileno(), SOCK_FD, inheritable=True)
        child.close()
        fds = [SOCK_FD]
        if PLAN.get("seccomp"):
            sfd = os.open(PLAN["seccomp"], os.O_RDONLY)
            os.dup2(sfd, SECCOMP_FD, inheritable=True)
            os.close(sfd)
            fds.append(SECCOMP_FD)
        out = 3 if role == "candidate" else subprocess.DEVNULL
        err = 4 if role == "candidate" else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            PLAN["launch"][role], pass_fds=fds, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
            start_new_session=True,
        )
        for fd in (SOCK_FD, SECCOMP_FD):
            os.dup2(_DEVNULL, fd, inheritable=False)
        self.pid = None
        self.pidfd = None
        # The last quiet reading (process cpu ns, tids, monotonic s): after a reply or a model build.
        self.quiet = None
        self.call_cpu0 = None
        self.flagged = 0
        self.last_flagged = False
        self.dead = False
        self.ready = False
        self.calls = 0
        self.inside = None  # the worker's own clock for its last staged call (ms): a fact, never trusted
        self.candidate = role == "candidate"
        if wait:
            self.started()

    def started(self):
        """Waits for the worker's hello (once)."""
        if self.ready:
            return self
        hello = self.recv(PLAN.get("start_timeout_s", 120), "starting")
        if hello.get("op") != "hello":
            raise Verdict("worker_failed", "runtime_error", f"{self.role}: {hello.get('message', 'the worker did not start')}")
        self.find_pid()
        if proc_cpu(self.pid) is None:
            raise Verdict("worker_failed", "runtime_error", f"{self.role}: the worker's cpu clock cannot be read (pid {self.pid})")
        self.ready = True
        return self

    def find_pid(self):
        # The worker is the sandbox's pid 1, bwrap's child: watch it (cpu, threads) and kill it by pidfd.
        try:
            with open(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children") as f:
                kids = [int(x) for x in f.read().split()]
        except OSError:
            kids = []
        self.pid = kids[0] if kids else self.proc.pid
        try:
            self.pidfd = os.pidfd_open(self.pid)
        except OSError:
            self.pidfd = None

    def kill(self):
        if self.dead:
            return
        self.dead = True
        try:
            if self.pidfd is not None:
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
        except OSError:
            pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except Exception:  # noqa: BLE001
            pass

    def send(self, msg, fds=()):
        try:
            if fds:
                socket.send_fds(self.sock, [json.dumps(msg).encode()], list(fds))
            else:
                self.sock.send(json.dumps(msg).encode())
        except OSError as e:
            raise Verdict("worker_failed", "runtime_error", f"{self.role}: the worker is gone ({e})") from e

    def recv(self, timeout, what, late=None):
        """The next reply; past `timeout` s the worker is killed and the verdict is `timeout` (`late`: its message)."""
        self.sock.settimeout(timeout)
        try:
            data = self.sock.recv(1 << 20)
        except socket.timeout:
            self.kill()
            raise Verdict("call_timeout", "timeout", late or f"{self.role}: {what} ran past its {timeout:g} s deadline") from None
        except OSError as e:
            raise Verdict("worker_failed", "runtime_error", f"{self.role}: the worker died ({e})") from e
        if not data:
            code = self.proc.wait(timeout=5)
            raise Verdict("worker_failed", "runtime_error", f"{self.role}: the worker died while {what} (exit {code})")
        try:
            msg = json.loads(data)
            if not isinstance(msg, dict) or msg.get("op") not in ("hello", "ready", "done", "error"):
                raise ValueError
        except ValueError:
            self.kill()
            raise Verdict("worker_failed", "runtime_error", f"{self.role}: a reply that is not one the worker sends") from None
        return msg

    def pending(self):
        self.sock.setblocking(False)
        try:
            return len(self.sock.recv(1 << 20, socket.MSG_PEEK)) > 0
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            return False
        finally:
            self.sock.setblocking(True)

    def wait_quiet(self, limit_s=QUIET_LIMIT_S):
        """Waits (at most limit_s) until no thread of the worker is running, waiting for a core or in uninterruptible
        sleep; then reads its process cpu and threads, exact now. Whether it became quiet."""
        t_end = time.monotonic() + limit_s
        while runnable(self.pid) and time.monotonic() < t_end:
            time.sleep(0.0005)
        quiet = not runnable(self.pid)
        self.quiet = (proc_cpu(self.pid), tids_of(self.pid), time.monotonic())
        return quiet

    def between_calls(self, when):
        """The candidate since it was last seen quiet (after its last reply or model build): more cpu than
        BETWEEN_CALLS_NS, or a thread started or ended, is work left running after forward() returned (rejected at
        once: the C harness's rule). The reading is where the next call's cpu count starts."""
        cpu, tids = proc_cpu(self.pid), tids_of(self.pid)
        if cpu is None:
            raise Verdict("worker_failed", "runtime_error", f"{self.role}: the worker is gone")
        if self.quiet is not None and self.candidate:
            q_cpu, q_tids, q_at = self.quiet
            used = cpu - q_cpu
            gone, born = q_tids - tids, tids - q_tids
            if used > BETWEEN_CALLS_NS or gone or born:
                now = thread_cpu(self.pid)
                per = sorted((ns / 1e6, k, comm(self.pid, k)) for k, ns in now.items())[-3:]
                raise Verdict(
                    "work_after_return", "rejected",
                    f"{self.role}: work still running after forward() returned ({used / 1e6:.2f} ms of cpu {when}, "
                    f"{(time.monotonic() - q_at) * 1000:.0f} ms after it was seen quiet (the allowance is "
                    f"{BETWEEN_CALLS_NS / 1e6:g} ms)"
                    + (f"; {len(born)} thread(s) started" if born else "")
                    + (f"; {len(gone)} thread(s) ended" if gone else "")
                    + f"; busiest threads (ms, tid, name): {per})",
                )
        return cpu, tids

    def before_call(self):
        """Right before a call: nothing may have run since the worker was seen quiet after its last reply, nor
        be queued."""
        self.call_cpu0, _ = self.between_calls("between calls")
        if self.pending():
            raise Verdict("forged_reply", "rejected", f"{self.role}: the worker sent a reply it was not asked for")

    def final_check(self, min_wait_s=0.05):
        """After the candidate's last call, at the end of the run (at least min_wait_s after its last quiet moment,
        then once it is quiet again, up to QUIET_LIMIT_S): nothing may have run since, as between calls."""
        if self.quiet is None or self.dead:
            return
        left = min_wait_s - (time.monotonic() - self.quiet[2])
        if left > 0:
            time.sleep(left)
        t_end = time.monotonic() + QUIET_LIMIT_S
        while runnable(self.pid) and time.monotonic() < t_end:
            time.sleep(0.0005)
        self.between_calls("after its last call, by the end of the run")
        if self.pending():
            raise Verdict("forged_reply", "rejected", f"{self.role}: the worker sent a reply it was not asked for")

    def init(self, msg, fd, ref_s=0.0, case="?"):
        """Builds the case's model in the worker (its constructor and two warm-up calls), then waits until it is
        quiet. ref_s: the reference's time for the same (its build and two calls), for the candidate's limit."""
        if self.candidate:
            self.between_calls("before the model was built")
            timeout, late = CLOCK.deadline("build", ref_s, case, PLAN.get("start_timeout_s", 120))
        else:
            timeout, late = PLAN.get("start_timeout_s", 120), None
        t0 = time.monotonic()
        self.send(msg, [fd])
        r = self.recv(timeout, "building the model", late)
        if self.candidate:
            CLOCK.add(time.monotonic() - t0, ref_s)
        if r["op"] == "error":
            raise Verdict("worker_failed", "runtime_error", f"{self.role}: {r['message']}")
        self.wait_quiet()
        self.calls = 0
        self.flagged = 0
        return r

    def run(self, ref_s=0.0, case="?"):
        """One call, timed from outside: ns of the round trip. ref_s: the reference's time on this case (s), for the
        candidate's deadline."""
        self.before_call()
        self.calls += 1
        if self.candidate:
            timeout, late = CLOCK.deadline("call", ref_s, case, T["call_timeout_s"])
        else:
            timeout, late = T["call_timeout_s"], None
        t0 = time.perf_counter_ns()
        self.send({"op": "run"})
        r = self.recv(timeout, "forward()", late)
        t1 = time.perf_counter_ns()
        reply_cpu, reply_tids = proc_cpu(self.pid), tids_of(self.pid)
        if r["op"] == "error":
            raise Verdict("worker_failed", "runtime_error", f"{self.role}: {r['message']}")
        inside = r.get("inside_ms")
        self.inside = float(inside) if isinstance(inside, (int, float)) and math.isfinite(inside) else None
        if self.candidate:
            CLOCK.add((t1 - t0) / 1e9, ref_s)
        t2 = time.perf_counter_ns()
        self.after_reply(t1 - t0, reply_cpu, reply_tids)
        # Where the timed phase's wall time goes, per role (the report's profile): the calls themselves, and the
        # wait after each reply until the worker's threads sleep.
        PROFILE[f"{self.role}_calls_ms"] = PROFILE.get(f"{self.role}_calls_ms", 0) + (t1 - t0) / 1e6
        PROFILE[f"{self.role}_after_reply_ms"] = (
            PROFILE.get(f"{self.role}_after_reply_ms", 0) + (time.perf_counter_ns() - t2) / 1e6
        )
        return t1 - t0

    def op(self, name, what, timeout=None):
        """A staged step that is not timed (prepare, fetch, nop): its round trip (ns), then quiet again."""
        t0 = time.perf_counter_ns()
        self.send({"op": name})
        r = self.recv(timeout or T["call_timeout_s"], what)
        t1 = time.perf_counter_ns()
        if r["op"] == "error":
            raise Verdict("worker_failed", "runtime_error", f"{self.role}: {r['message']}")
        self.wait_quiet()
        return t1 - t0, r

    def call(self, ref_s=0.0, case="?"):
        """One call as the harness times it: run() on the cpu; staged, the inputs copied to the device first
        (untimed), the run timed from outside less the baseline's no-op round trip, the outputs copied back
        (untimed). The worker's event time is kept (self.inside) beside the outside one."""
        if not STAGED:
            return self.run(ref_s, case)
        self.op("prepare", "copying the inputs to the device")
        t = self.run(ref_s, case)
        self.op("fetch", "copying the outputs back")
        return max(1, t - NOP_NS[0])

    def nop_ns(self, n=NOP_CALLS):
        """The median of n no-op round trips (a staged run without the call)."""
        v = sorted(self.op("nop", "a no-op")[0] for _ in range(n))
        return v[len(v) // 2]

    def after_reply(self, wall_ns, reply_cpu, reply_tids):
        """Waits until the worker is quiet (only then is its cpu exact), then, for the candidate, judges the call
        (the C harness's busy_after_return and outside_call): work still running QUIET_LIMIT_S after the reply is
        rejected at once; the call is flagged when a thread was started after
        the reply, when the process used more than AFTER_REPLY_NS of cpu after the reply, or when its cpu from the
        command to now exceeds the round trip on every core of the budget plus AFTER_REPLY_NS (work done outside
        the call: a reply sent before forward() returned). The process's cpu counts ended threads too."""
        quiet = self.wait_quiet()
        self.last_flagged = False
        if not self.candidate:
            return
        q_cpu, q_tids, _ = self.quiet
        # A thread that ends after the reply is judged by its cpu, which the process clock still counts: the threads
        # of an honest forward() that joins them before returning may still be on their way out at the reply.
        if not quiet:
            raise Verdict("work_after_return", "rejected", f"{self.role}: work still running {QUIET_LIMIT_S:g} s after forward() returned")
        born = q_tids - reply_tids
        after = q_cpu - reply_cpu
        total = q_cpu - self.call_cpu0
        room = wall_ns * len(BUDGET) + AFTER_REPLY_NS
        why = None
        if born:
            why = f"{len(born)} thread(s) started after the reply"
        elif self.calls > WARM_CALLS and after > AFTER_REPLY_NS:
            why = f"{after / 1e6:.2f} ms of cpu after the reply; the allowance is {AFTER_REPLY_NS / 1e6:g} ms"
        elif self.calls > WARM_CALLS and total > room:
            why = (f"{total / 1e6:.2f} ms of cpu for a call of {wall_ns / 1e6:.3f} ms on {len(BUDGET)} core(s): work "
                   "done outside the call")
        FLAGS["calls"] += 1
        if why is None:
            return
        self.flagged += 1
        FLAGS["flagged"] += 1
        self.last_flagged = True
        case = flagged_rejects(self.flagged, self.calls)
        run = flagged_rejects(FLAGS["flagged"], FLAGS["calls"])
        if case or run:
            n, m = (self.flagged, self.calls) if case else (FLAGS["flagged"], FLAGS["calls"])
            raise Verdict(
                "work_after_return", "rejected",
                f"{self.role}: work went on after forward() returned ({why}; {n} of {m} calls"
                + (" since the model was built" if case else "")
                + ")",
            )


def memfd_for(size):
    fd = os.memfd_create("kf-torch", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    os.ftruncate(fd, max(size, 64))
    # Sealed at its size: a worker cannot shrink it under the harness's own mapping.
    fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SEAL)
    return fd


class Shared:
    """A worker's memory for one case: the reference's parameters, the inputs, the outputs (views of a memfd)."""

    def __init__(self, params, inputs, outputs):
        import mmap

        layout, off = [], 0

        def place(t):
            nonlocal off
            off = (off + 63) // 64 * 64
            d = {"offset": off, "shape": list(t.shape), "dtype": dtype_name(t.dtype)}
            off += t.numel() * t.element_size()
            return d

        self.params = [dict(place(t), name=n) for n, t in params]
        self.inputs = [place(t) if isinstance(t, torch.Tensor) else {"repr": repr(t)} for t in inputs]
        self.outputs = [place(t) for t in outputs]
        self.size = max(off, 64)
        self.fd = memfd_for(self.size)
        self.mm = mmap.mmap(self.fd, self.size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        buf = memoryview(self.mm)

        def view(d):
            dt = getattr(torch, d["dtype"])
            n = math.prod(d["shape"])
            if n == 0:
                return torch.empty(d["shape"], dtype=dt)
            return torch.frombuffer(buf, dtype=dt, count=n, offset=d["offset"]).view(d["shape"])

        self.param_views = [view(d) for d in self.params]
        self.input_views = [view(d) if "offset" in d else None for d in self.inputs]
        self.output_views = [view(d) for d in self.outputs]
        with torch.no_grad():
            for (_, t), v in zip(params, self.param_views):
                v.copy_(t)

    def message(self, init_args, ctor_seed):
        return {
            "op": "init", "size": self.size, "params": self.params, "inputs": self.inputs,
            "outputs": self.outputs, "init_args": init_args, "ctor_seed": ctor_seed,
        }

    def write_inputs(self, inputs):
        for v, t in zip(self.input_views, inputs):
            if v is not None:
                v.copy_(t)

    def nan_outputs(self):
        for v in self.output_views:
            if v.is_floating_point():
                v.fill_(float("nan"))
            elif v.dtype == torch.bool:
                v.fill_(True)
            else:
                v.fill_(0x7F)


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


class Problem:
    """The reference at one case's constants: its module, init args, model, seeded inputs."""

    def __init__(self, constants, name="?"):
        t0 = time.perf_counter()
        self.name = name
        self.mod = load_module(SOURCE, FILE_NAME, constants)
        self.ctor_seed = PLAN["ctor_seed"]
        torch.manual_seed(self.ctor_seed)
        self.init = list(self.mod.get_init_inputs())
        self.init_args = [literal(v) for v in self.init]
        torch.manual_seed(self.ctor_seed)
        self.model = self.mod.Model(*self.init)
        self.params = [(n, t.detach().clone()) for n, t in self.model.state_dict().items()]
        # Built on the cpu (the same parameters as every worker's, from the same public seed), run on the device.
        if DEVICE != "cpu":
            self.model = self.model.to(DEVICE)
        self.build_s = time.perf_counter() - t0

    def inputs(self, seed, dist):
        torch.manual_seed(seed)
        if DEVICE != "cpu":
            # Drawn on the device (fast at GPU sizes), kept on the cpu: the shared memory is the host's.
            with torch.device(DEVICE):
                xs = [x.cpu() if isinstance(x, torch.Tensor) else x for x in self.mod.get_inputs()]
        else:
            xs = list(self.mod.get_inputs())
        if dist == "scaled_x4":
            xs = [x * 4 if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in xs]
        return xs

    def expected(self, inputs):
        """The reference's outputs on these inputs; its time (the call alone) joins the case's reference times."""
        args = [x.to(DEVICE, copy=True) if isinstance(x, torch.Tensor) else x for x in inputs]
        with torch.no_grad():
            t0 = time.perf_counter()
            out = self.model(*args)
            if DEVICE != "cpu":
                torch.cuda.synchronize()
            REF_TIMES.setdefault(self.name, []).append(time.perf_counter() - t0)
            return [o.detach().to("cpu", copy=True) for o in flat(out)]

    def ref_s(self):
        return ref_time(self.name)

    def build_ref_s(self):
        """The reference's time for what a worker's model build does: construct the model, call it twice."""
        return self.build_s + 2 * self.ref_s()


def distributions(p, seed):
    xs = p.inputs(seed, "as_written")
    return ["as_written", "scaled_x4"] if any(isinstance(x, torch.Tensor) and x.is_floating_point() for x in xs) else ["as_written"]


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


def fresh_seed():
    """A timed sample's seed: 63 bits from the operating system's random source, drawn after the previous call
    returned, so nothing the candidate saw before (earlier inputs, its constructor's seed) predicts it."""
    return secrets.randbits(63)


def proc_stat_busy():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal
    return (v[0] + v[1] + v[2] + v[5] + v[6] + (v[7] if len(v) > 7 else 0)) / os.sysconf("SC_CLK_TCK")


def take_lock():
    fd = PLAN.get("lock_fd")
    if fd is None:
        return False, 0.0, False
    t0 = time.monotonic()
    told = False
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True, (time.monotonic() - t0) * 1000, False
        except OSError:
            if not told:
                # Held by another timing: the page says it waits for the lock (the runner adds what holds it).
                progress("lock", 0, len(PLAN["cases"]["benchmark"]), 0, force=True)
                told = True
            if time.monotonic() - t0 > PLAN.get("lock_wait_s", 120):
                return False, (time.monotonic() - t0) * 1000, True
            time.sleep(0.05)


def baseline_roles():
    return ["baseline"] + (["compiled"] if PLAN["launch"].get("compiled") else [])


def start_baselines():
    """The baseline workers, started without waiting: they import torch while the candidate is checked (on a small
    machine that start-up is seconds per worker). A worker that cannot even be spawned is started again, and fails
    with its reason, in benchmark()."""
    early = {}
    if not PLAN["cases"]["benchmark"]:
        return early
    for role in baseline_roles():
        try:
            early[role] = Worker(role, wait=False)
        except (OSError, Verdict):
            pass
    return early


def benchmark(cand, report, early):
    others = {}
    compiled_note = None
    for role in baseline_roles():
        try:
            others[role] = early.pop(role).started() if role in early else Worker(role)
        except Verdict as v:
            if role == "baseline":
                raise Verdict("baseline_failed", "runtime_error", f"the reference baseline failed: {v.message}") from None
            compiled_note = f"TorchScript freeze unavailable: {v.message}"[:500]
    locked, lock_wait, gave_up = take_lock()
    budget = T["max_ms"] / max(1, len(PLAN["cases"]["benchmark"]))
    busy0, wall0 = proc_stat_busy(), time.monotonic()
    own0 = resource.getrusage(resource.RUSAGE_SELF)
    work0 = {}
    for ci, c in enumerate(PLAN["cases"]["benchmark"]):
        progress("timing", ci + 1, len(PLAN["cases"]["benchmark"]), 0)
        p = Problem(c["constants"], c["name"])
        base_inputs = p.inputs(PLAN["bench_seed"], "as_written")
        want = p.expected(base_inputs)
        names = input_names(base_inputs)
        workers = {"candidate": cand, **others}
        shared = {}
        for role, w in list(workers.items()):
            sh = Shared(p.params, base_inputs, want)
            try:
                w.init(sh.message(p.init_args, p.ctor_seed), sh.fd, p.build_ref_s(), c["name"])
            except Verdict as v:
                if role != "compiled":
                    raise
                compiled_note = f"TorchScript freeze failed: {v.message}"[:500]
                w.kill()
                del workers[role]
                others.pop(role, None)
                continue
            finally:
                os.close(sh.fd)
            shared[role] = sh
        for role, w in workers.items():
            work0.setdefault(role, proc_cpu(w.pid) or 0)
        if STAGED:
            NOP_NS[0] = workers["baseline"].nop_ns()
        # The first call at the benchmark sizes is checked against the harness's own reference outputs.
        for role, w in list(workers.items()):
            sh = shared[role]
            sh.write_inputs(base_inputs)
            sh.nan_outputs()
            t = w.call(p.ref_s(), c["name"])
            if role == "baseline":
                REF_TIMES[c["name"]].append(t / 1e9)
            ok, *_r, msg = compare_all([o.clone() for o in sh.output_views], want)
            if not ok:
                if role == "candidate":
                    raise Verdict("outputs_differ", "incorrect", f"incorrect: case {c['name']} (benchmark sizes): {msg}")
                if role == "compiled":
                    compiled_note = f"TorchScript freeze changed the results ({msg}); not used"
                    w.kill()
                    del workers[role]
                    others.pop(role, None)
                    continue
                raise Verdict("baseline_failed", "runtime_error", f"the reference baseline disagrees with the reference: {msg}")
            check_inputs(sh.input_views, base_inputs, names) if role == "candidate" else None
        for _ in range(max(WARM_CALLS, T["warmup_calls"] - 1)):
            for role, w in workers.items():
                t = w.call(p.ref_s(), c["name"])
                if role == "baseline":
                    REF_TIMES[c["name"]].append(t / 1e9)
        times = {r: [] for r in workers}
        inside = {r: [] for r in workers}  # staged: each worker's own clock (events) per counted call, ms
        ratios = []  # per clean iteration: the eager baseline's time over the candidate's (paired, same inputs)
        flagged = 0
        waited_kept = 0
        t_start = time.monotonic()
        order = list(workers)
        if "candidate" in workers:
            keep_budget(workers["candidate"].pid)  # a thread moved during the checks starts timing inside the budget
        sched0 = {r: sched_of(workers[r].pid) for r in SCHED if r in workers}
        while True:
            # Every timed sample gets inputs of its own, drawn fresh from get_inputs() with a seed from the operating
            # system: never a scaled, shifted or permuted copy of earlier inputs, which a candidate could cache.
            xs = p.inputs(fresh_seed(), "as_written")
            order = order[1:] + order[:1]
            now = {}
            waited = False
            for role in order:
                sh = shared[role]
                sh.write_inputs(xs)
                sh.nan_outputs()
                s0 = sched_of(workers[role].pid) if RETAKE > 0 and role in SCHED else None
                t = workers[role].call(p.ref_s(), c["name"])
                if role == "candidate":
                    keep_budget(workers[role].pid)
                elif role == "baseline":
                    REF_TIMES[c["name"]].append(t / 1e9)
                if s0 is not None:
                    c1, w1 = sched_of(workers[role].pid)
                    dc, dw = c1 - s0[0], w1 - s0[1]
                    waited = waited or waited_call(dc, dw)
                if role == "candidate" and workers[role].last_flagged:
                    flagged += 1  # counted by the judge as the slowest clean sample
                else:
                    now[role] = t
            # A pair one of whose calls spent more than its share of the window runnable but waiting for a cpu is
            # counted (load.waited_pairs_kept), never dropped (issue 31, as the C harness): a call's wait is the
            # candidate's to make (more runnable threads than cores), so a kernel could have its slow calls wait and
            # be taken again; deciding on the baseline's wait alone would bias every speedup low under load. Which
            # pairs count is decided by nothing but their order. Until 2026-11-27 such pairs were taken again.
            if waited:
                waited_kept += 1
            for role, t in now.items():
                times[role].append(t)
                if STAGED and workers[role].inside is not None:
                    inside[role].append(workers[role].inside)
            if "candidate" in now and now["candidate"] > 0:
                ratios.append(now["baseline"] / now["candidate"])
            # Every timed output is checked: against the baseline's output on the same fresh inputs (close_all: the
            # rule of compare_all, which says what differs when it fails).
            gots = [o.clone() for o in shared["candidate"].output_views]
            wants = [o.clone() for o in shared["baseline"].output_views]
            if not close_all(gots, wants):
                ok, *_r, msg = compare_all(gots, wants)
                raise Verdict("outputs_differ", "incorrect", f"incorrect: a timed call at case {c['name']} was wrong: {msg}")
            check_inputs(shared["candidate"].input_views, xs, names)
            n = len(times["candidate"])
            # Between pairs, outside every timed window (throttled).
            progress("timing", ci + 1, len(PLAN["cases"]["benchmark"]), n)
            elapsed = (time.monotonic() - t_start) * 1000
            if converged(times["candidate"]) and converged(times["baseline"]) and speedup_converged(ratios):
                break
            if elapsed >= budget and n >= 1:
                break
            if elapsed >= budget * 2 and n == 0:
                raise Verdict("all_calls_flagged", "rejected", f"no call of case {c['name']} could be timed: every call was flagged")
        progress("timing", ci + 1, len(PLAN["cases"]["benchmark"]), len(times["candidate"]), force=True)
        RETAKEN[1] += waited_kept
        for r, (c0, w0) in sched0.items():
            c1, w1 = sched_of(workers[r].pid)
            if c1 >= c0 and w1 >= w0:
                SCHED[r][0] += c1 - c0
                SCHED[r][1] += w1 - w0
        # Facts only: clean samples (ms) and how many calls were flagged; the judge (src/evaluate/judge.ts) counts
        # each flagged call as the slowest clean sample and decides everything else.
        ms = {r: [x / 1e6 for x in v] for r, v in times.items()}
        entry = {
            "name": c["name"], "sizes": c["constants"], "optimized": ms["candidate"], "baseline": ms["baseline"],
            "compiled": ms.get("compiled"), "flagged": flagged, "ratios": ratios,
            # Parameters, inputs and outputs, each read or written once: the least memory traffic a call needs.
            "bytes": shared["candidate"].size,
        }
        if STAGED:
            # The outside times above are round trips less the no-op's; the workers' own event times beside them.
            entry["nop_ms"] = NOP_NS[0] / 1e6
            entry["inside"] = inside["candidate"]
            entry["baseline_inside"] = inside["baseline"]
        report["bench"].append(entry)
    # /proc/stat counts in 10 ms ticks: a short timed phase is padded (idle, lock held) to the judge's window, so a
    # short phase under heavy load is seen as such.
    left = LOAD_WINDOW_MS / 1000 - (time.monotonic() - wall0)
    if left > 0:
        time.sleep(left)
    wall = time.monotonic() - wall0
    busy = proc_stat_busy() - busy0
    own1 = resource.getrusage(resource.RUSAGE_SELF)
    own = (own1.ru_utime - own0.ru_utime) + (own1.ru_stime - own0.ru_stime)
    own += sum(max(0, (proc_cpu(w.pid) or 0) - work0.get(r, 0)) for r, w in {"candidate": cand, **others}.items()) / 1e9
    if locked:
        fcntl.flock(PLAN["lock_fd"], fcntl.LOCK_UN)
    cores = os.cpu_count() or 1
    outside = max(0.0, (busy - own) / wall) if wall > 0 else 0.0
    report["load"] = {
        "outside_cores": round(outside, 3), "cores": cores, "wall_ms": round(wall * 1000, 1), "lock": locked,
        "lock_wait_ms": round(lock_wait, 1), "lock_gave_up": gave_up,
        "budget_cores": len(BUDGET), "budget_cpus": cpu_list(BUDGET),
    }
    if BUDGET_RESETS[0]:
        report["load"]["budget_resets"] = BUDGET_RESETS[0]
    for role, key in (("candidate", "wait_share"), ("baseline", "baseline_wait_share")):
        share = wait_share(*SCHED[role])
        if share is not None:
            report["load"][key] = round(share, 4)
    if RETAKE > 0:
        report["load"]["retaken_pairs"], report["load"]["waited_pairs_kept"] = RETAKEN
    if compiled_note:
        report["compiled_note"] = compiled_note
    for w in others.values():
        w.kill()
    # Nothing may run in the candidate's process after its last reply either (issue 31).
    cand.final_check()


def main():
    report = {"verdict": "accepted", "message": "", "correctness": [], "bench": [], "profile": PROFILE,
              "toolchains": {"python": platform.python_version(), "torch": torch.__version__}}
    cand = None
    early = {}
    try:
        t0 = time.monotonic()
        cand = Worker("candidate")
        PROFILE["start_ms"] = (time.monotonic() - t0) * 1000
        early = start_baselines()
        t0 = time.monotonic()
        correctness(cand, report)
        PROFILE["correctness_ms"] = (time.monotonic() - t0) * 1000
        t0 = time.monotonic()
        benchmark(cand, report, early)
        PROFILE["benchmark_ms"] = (time.monotonic() - t0) * 1000
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
