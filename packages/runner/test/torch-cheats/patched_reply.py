# Cheat (issue 31 item 3; accepted at 2.41x over eager on 101_HardSigmoid, rank 1, where an honest control read
# 0.99x): at import, reach the worker's own code through names built at run time (no `sys.modules`, no
# `__main__`, no `Case` in the text for the static scan to see) and replace its case runner and its reply path.
# The runner computes 40% of the output in the call and leaves the rest; the reply path sends "done", waits until
# the socket's send queue is empty (the harness has read the reply, and taken its cpu reading), keeps the worker
# busy a moment longer, then starts a thread that computes the rest and exits. The harness waited for the runnable
# thread but summed the cpu of live threads only, and compared the thread lists of the reply and of the quiet
# moment: a thread born after the first and dead before the second was never seen.
#
# Where the worker keeps its loop's names out of its globals (locals of a running function), the same patch goes
# through the frame: its locals are rewritten with ctypes (PyFrame_LocalsToFast). Nothing in the candidate's own
# process is out of its reach; what the harness measures from outside must not depend on it.
import array
import ctypes
import fcntl
import sys
import termios
import threading
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

SHARE_IN_CALL = 0.4
SOCK_FD = 11  # the worker's argv says so (--sock 11)
PENDING = []
STATE = {"patched": None, "calls": 0}


def _name(*parts):
    return "".join(parts)


def outq(fd):
    buf = array.array("i", [0])
    fcntl.ioctl(fd, termios.TIOCOUTQ, buf, True)  # SIOCOUTQ: bytes sent and not yet read by the peer
    return buf[0]


def finish_later():
    """After the reply: once the harness has read it, start the thread that does the rest."""
    if not PENDING:
        return
    src, dst = PENDING.pop()
    t_end = time.perf_counter() + 0.02
    while outq(SOCK_FD) > 0 and time.perf_counter() < t_end:
        pass
    spin = time.perf_counter() + 0.003  # past the harness's reading at the reply
    while time.perf_counter() < spin:
        pass

    threading.Thread(target=finish, args=(src, dst)).start()


def finish(src, dst, chunk=16384):
    """The rest, in pieces under torch's parallel grain: no OpenMP team of the thread's own."""
    with torch.no_grad():
        for i in range(0, src.numel(), chunk):
            dst[i : i + chunk] = F.hardsigmoid(src[i : i + chunk])


def partial(inputs, outputs):
    x, dst = inputs[0], outputs[0]
    xf, df = x.reshape(-1), dst.view(-1)
    k = int(xf.numel() * SHARE_IN_CALL)
    with torch.no_grad():
        df[:k].copy_(F.hardsigmoid(xf[:k]))
    PENDING.append((xf[k:], df[k:]))
    STATE["calls"] += 1


def patch_globals():
    """The worker as it was: Case and send are globals of its __main__."""
    mods = getattr(sys, _name("mod", "ules"))
    main = mods.get(_name("__", "ma", "in", "__"))
    g = vars(main) if main is not None else {}
    case_cls, real_send = g.get(_name("Ca", "se")), g.get(_name("se", "nd"))
    if case_cls is None or real_send is None or not hasattr(case_cls, _name("ru", "n")):
        return False

    def run(self):
        partial(self.inputs, self.outputs)

    def send(msg):
        real_send(msg)
        if msg.get("op") == "done":
            finish_later()

    setattr(case_cls, _name("ru", "n"), run)
    g[_name("se", "nd")] = send
    return True


def patch_frame():
    """The worker's loop keeps `run_case` and `reply` as locals of a running function: rewrite them in its frame."""
    f = sys._getframe(1)
    while f is not None and not ({"run_case", "reply"} <= set(f.f_code.co_varnames)):
        f = f.f_back
    if f is None:
        return False
    loc = f.f_locals
    real_run, real_reply = loc.get("run_case"), loc.get("reply")
    if real_run is None or real_reply is None:
        return False

    def run_case(*a, **k):
        case = next(c for c in a if hasattr(c, "inputs") and hasattr(c, "outputs"))
        partial(case.inputs, case.outputs)

    def reply(*a, **k):
        real_reply(*a, **k)
        if any(isinstance(m, dict) and m.get("op") == "done" for m in a):
            finish_later()

    loc["run_case"], loc["reply"] = run_case, reply
    ctypes.pythonapi.PyFrame_LocalsToFast(ctypes.py_object(f), ctypes.c_int(0))
    return True


try:
    STATE["patched"] = "globals" if patch_globals() else None
except Exception as e:  # noqa: BLE001
    print("patch_globals failed:", e, flush=True)
if STATE["patched"]:
    print("patched:", STATE["patched"], flush=True)


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        if STATE["patched"] is None:
            try:
                STATE["patched"] = "frame" if patch_frame() else "none"
            except Exception as e:  # noqa: BLE001
                STATE["patched"] = "none"
                print("patch_frame failed:", e, flush=True)
            print("patched:", STATE["patched"], flush=True)
        return F.hardsigmoid(x)
