# The harness's side of the protocol: a sandboxed worker process (candidate, eager baseline, compiled baseline)
# started, spoken to over its socket, timed from outside (round trips, process cpu, threads), and the shared memory
# (a sealed memfd) a case's parameters, inputs and outputs live in. The worker's side is worker.py.
import fcntl
import json
import math
import os
import signal
import socket
import subprocess
import time

import torch

from .checks import dtype_name
from .plan import (
    _DEVNULL, AFTER_REPLY_NS, BETWEEN_CALLS_NS, BUDGET, CALL_FLOOR_S, INIT_FLOOR_S, LIMITS, NOP_CALLS, NOP_NS, PLAN, PROFILE,
    QUIET_LIMIT_S, REF_MULTIPLE, SECCOMP_FD, SOCK_FD, STAGED, T, TOTAL_FLOOR_S, Verdict, WARM_CALLS,
)
from .procfs import busy_threads, comm, proc_cpu, runnable, stuck_state, thread_cpu, tids_of
from .stats import flagged_rejects


SCHED = {"candidate": [0, 0], "baseline": [0, 0]}
RETAKEN = [0, 0]  # pairs taken again (none since issue 31); pairs one of whose calls waited for a cpu (counted, kept)


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


# The product's floor is TOTAL_FLOOR_S's 20 s; a plan may lower it (import_floor_s: tests of the limit itself).
IMPORT_FLOOR_S = float(LIMITS.get("import_floor_s", 20.0))
IMPORT_MULTIPLE = 2


def import_limit_s(torch_import_s):
    """How long the candidate's worker may take to start (import torch, the worker's modules and the file): its own
    import of torch (as long as the harness's, give or take the load) plus the larger of IMPORT_FLOOR_S and twice that
    import, for the file's top level and a burst of load (a prebuilt extension loads in well under a second). The
    floor is the evaluation's (TOTAL_FLOOR_S's 20 s), not lowered with the other limits: only a stall reaches it."""
    return torch_import_s + max(IMPORT_FLOOR_S, IMPORT_MULTIPLE * torch_import_s)


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
        self.spawned = time.monotonic()
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
        self.untimed = None
        self.untimed_cpu = None
        self.op_cpu = None
        self.dead = False
        self.ready = False
        self.calls = 0
        self.inside = None  # the worker's own clock for its last staged call (ms): a fact, never trusted
        self.candidate = role == "candidate"
        if wait:
            self.started()

    def started(self, limit_s=None):
        """Waits for the worker's hello (once); limit_s: the candidate's start-up limit (import_limit_s), timed from its
        spawn, past which the verdict is `timeout`."""
        if self.ready:
            return self
        cap = PLAN.get("start_timeout_s", 120)
        if limit_s is not None and limit_s < cap:
            left = max(0.001, limit_s - (time.monotonic() - self.spawned))
            late = (f"timeout: importing the file ran past its {limit_s:.3g} s limit (the larger of {IMPORT_FLOOR_S:g} s "
                    f"and {IMPORT_MULTIPLE:g}x this machine's import of torch, plus that import)")
            hello = self.recv(left, "starting", late)
        else:
            hello = self.recv(cap, "starting")
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
            state = ""
            if what == "starting":
                # Before the hello its pid is not known yet: read it now, for what it was doing.
                self.find_pid()
                state = f" ({stuck_state(self.pid)})"
            self.kill()
            raise Verdict("call_timeout", "timeout",
                          (late or f"{self.role}: {what} ran past its {timeout:g} s deadline") + state) from None
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
        """A staged step that is not timed (prepare, fetch, nop): its round trip (ns), then quiet again. self.op_cpu:
        the process's cpu (ns) from the command to the quiet moment after it (exact: read quiet both times)."""
        c0 = proc_cpu(self.pid)
        t0 = time.perf_counter_ns()
        self.send({"op": name})
        r = self.recv(timeout or T["call_timeout_s"], what)
        t1 = time.perf_counter_ns()
        if r["op"] == "error":
            raise Verdict("worker_failed", "runtime_error", f"{self.role}: {r['message']}")
        self.wait_quiet()
        c1 = self.quiet[0]
        self.op_cpu = c1 - c0 if c0 is not None and c1 is not None else None
        return t1 - t0, r

    def call(self, ref_s=0.0, case="?"):
        """One call as the harness times it: run() on the cpu; staged, the inputs copied to the device first
        (untimed), the run timed from outside less the baseline's no-op round trip, the outputs copied back
        (untimed). The worker's event time is kept (self.inside) beside the outside one."""
        if not STAGED:
            return self.run(ref_s, case)
        # The untimed steps' round trips (ns) are kept beside the timed one (self.untimed): they run in the worker's
        # process, where a candidate can move its work (a result computed when `fetch` copies it, inputs worked on
        # as `prepare` copies them; torch-cheats/lazy_fetch.py), so the judge holds them to the baseline's own
        # (cuda-trust.ts, stagedTrust in judge.ts).
        prep, _ = self.op("prepare", "copying the inputs to the device")
        prep_cpu = self.op_cpu
        t = self.run(ref_s, case)
        fetch, _ = self.op("fetch", "copying the outputs back")
        self.untimed = prep + fetch
        # Their process cpu too: on a cpu, work moved there is cpu, which load does not add to as it adds wall time.
        self.untimed_cpu = prep_cpu + self.op_cpu if prep_cpu is not None and self.op_cpu is not None else None
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
            # What was not quiet, and whether it used the cpu meanwhile (a thread spinning) or not (asleep in the
            # kernel, state D: a driver's wait), said with the verdict.
            used = f"{(q_cpu - reply_cpu) / 1e6:.1f} ms" if q_cpu is not None and reply_cpu is not None else "unknown"
            raise Verdict(
                "work_after_return", "rejected",
                f"{self.role}: work still running {QUIET_LIMIT_S:g} s after forward() returned (threads not quiet: "
                f"{busy_threads(self.pid)}; cpu since the reply: {used})",
            )
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
    """A memfd of `size` bytes (at least 64), its pages not yet allocated (allocate_in_turn)."""
    fd = os.memfd_create("kf-torch", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    os.ftruncate(fd, max(size, 64))
    # Sealed at its size: a worker cannot shrink it under the harness's own mapping.
    fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SEAL)
    return fd


PLACE_CHUNK = 64 << 10


def allocate_in_turn(fds, size):
    """Every page of the workers' memfds allocated now, in turn (64 KiB of each, then the next 64 KiB of each): all
    get the same mix of physical memory. Where a page lands decides how fast memory-bound work runs on it: two memfds
    allocated one after the other read 0.975-1.19x apart for the same single-threaded ReLU on a 2-core Zen 4 VM, in
    turn 0.985-1.021x (the C harness's data_allocate, 2026-11-28). Where fallocate is refused, pages come on first
    touch as before."""
    for off in range(0, size, PLACE_CHUNK):
        n = min(PLACE_CHUNK, size - off)
        for fd in fds:
            try:
                os.posix_fallocate(fd, off, n)
            except OSError:
                return


class Shared:
    """A worker's memory for one case: the reference's parameters, the inputs, the outputs (views of a memfd)."""

    @classmethod
    def in_turn(cls, n, params, inputs, outputs):
        """n workers' memory for one case, their pages allocated in turn (allocate_in_turn)."""
        group = [cls(params, inputs, outputs, allocate=False) for _ in range(n)]
        if group:
            allocate_in_turn([sh.fd for sh in group], group[0].size)
        for sh in group:
            sh.open()
        return group

    def __init__(self, params, inputs, outputs, allocate=True):
        self._params = params

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
        if allocate:
            allocate_in_turn([self.fd], self.size)
            self.open()

    def open(self):
        """Maps the memfd and copies the reference's parameters in."""
        import mmap

        params = self._params
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
