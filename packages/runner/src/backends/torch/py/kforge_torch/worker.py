# The torch worker: the only process that imports a candidate (or, in its own sandbox, the reference for the
# baseline). It runs inside bwrap as the sandbox's pid 1 and sees only its box (/w). Nothing it reports is
# trusted: the harness (another process, outside this sandbox) times every call from outside, generates the
# inputs, keeps the expected outputs, checks what lands in the shared memory, and reads this process's cpu time
# (all its threads, ended ones included) from outside.
#
# Protocol: a SOCK_SEQPACKET socket (fd given as --sock), one JSON message per packet. The harness sends
#   {"op": "init", ...} with a sealed memfd (SCM_RIGHTS) holding the parameters, inputs and outputs of a case;
#   {"op": "run"} -> the worker calls forward on the inputs (views of the memfd) and copies the result into the
#   output views; replies {"op": "done"} or {"op": "error", "message": ...};
#   {"op": "facts"} (after the timed phase) -> {"op": "done", "facts": {...}}: facts.py's torch facts of the last case.
#
# The worker's own code is kept out of the candidate's easy reach (issue 31: a candidate replaced `Case.run` and
# `send`, then globals of this module, through names built at run time): nothing of it is a global of `__main__`
# but `main` (the entry line imports only that); the loop's case runner and reply path are locals of the running
# `serve` frame, bound (with the socket's own methods and the JSON codec) before the candidate is imported, so
# patching this module or cases.py, `socket`, `json` or `torch` afterwards changes nothing here. That is defence in
# depth only: anything in this process can be reached (frames, `gc`, `ctypes`), and what the harness measures does
# not depend on any of it. The worker's modules (this one, cases.py, facts.py, loader.py) are all of the package in its
# box.
import argparse
import array
import functools
import json
import socket
import sys
import traceback

from .cases import _build_case, _run_case, _Stage
from .facts import facts_of as _facts_of
from .loader import compile_only, import_module, install_prebuilt_loader


def _reply(send, dumps, msg):
    send(dumps(msg).encode())


def serve(args, torch, sock):
    """Imports the file and answers the harness's commands until it closes the socket. Everything the loop calls is
    a local of this frame, bound before the file is imported."""
    dtypes = {
        "float32": torch.float32,
        "float64": torch.float64,
        "float16": torch.float16,
        "bfloat16": torch.bfloat16,
        "int64": torch.int64,
        "int32": torch.int32,
        "int16": torch.int16,
        "int8": torch.int8,
        "uint8": torch.uint8,
        "bool": torch.bool,
    }
    reply = functools.partial(_reply, sock.send, json.dumps)
    recvmsg, loads = sock.recvmsg, json.loads
    build_case, run_case, facts_of = _build_case, _run_case, _facts_of
    staged = args.staged or args.device != "cpu"
    stage = _Stage(torch, args.device, args.flush_bytes) if staged else None
    fd_space = socket.CMSG_SPACE(4 * array.array("i").itemsize)
    install_prebuilt_loader()
    try:
        module = import_module(args.module, "candidate" if args.cls == "ModelNew" else "reference_baseline")
        model_cls = getattr(module, args.cls, None)
        if model_cls is None:
            raise RuntimeError(f"the file defines no class {args.cls}")
        reply({"op": "hello", "torch": torch.__version__})
    except BaseException as e:  # noqa: BLE001 - reported to the harness, which decides
        reply({"op": "error", "message": f"importing the file failed: {type(e).__name__}: {e}"[:2000]})
        traceback.print_exc()
        sys.exit(1)
    case = None
    while True:
        data, anc, _flags, _addr = recvmsg(1 << 20, fd_space)
        if not data:
            sys.exit(0)
        fds = []
        for level, kind, body in anc:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                a = array.array("i")
                a.frombytes(body[: len(body) - len(body) % a.itemsize])
                fds.extend(a)
        try:
            msg = loads(data)
            op = msg["op"]
            if op == "init":
                case = None
                case = build_case(torch, dtypes, model_cls, args.mode, msg, fds[0], args.device, staged)
                reply({"op": "ready", "copied": case.copied})
            elif op == "run" and stage is not None:
                reply({"op": "done", "inside_ms": stage.run(case)})
            elif op == "run":
                run_case(torch, case)
                reply({"op": "done"})
            elif op == "prepare" and stage is not None:
                stage.prepare(case)
                reply({"op": "done"})
            elif op == "fetch" and stage is not None:
                stage.fetch(case)
                reply({"op": "done"})
            elif op == "nop" and stage is not None:
                reply({"op": "done", "inside_ms": stage.nop()})
            elif op == "facts" and case is not None:
                # The torch facts (facts.py), asked for once the timed phase is over: the last case's model on its
                # inputs. What this returns is the candidate's process's: the runner checks it, and it judges nothing.
                fn, inputs = case.fn, case.dev_inputs
                reply({"op": "done", "facts": facts_of(torch, lambda: fn(*inputs), args.device, module)})
            elif op == "exit":
                sys.exit(0)
        except SystemExit:
            raise
        except BaseException as e:  # noqa: BLE001
            traceback.print_exc()
            reply({"op": "error", "message": f"{type(e).__name__}: {e}"[:2000]})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sock", type=int, required=False)
    ap.add_argument("--module", default="/w/candidate.py")
    ap.add_argument("--cls", default="ModelNew")
    ap.add_argument("--mode", default="eager", choices=["eager", "freeze", "compile", "compile-only"])
    ap.add_argument("--threads", type=int, default=1)
    # The device the model and its inputs live on (cuda: the staged path), and the staged protocol on the cpu.
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--staged", action="store_true")
    ap.add_argument("--flush-bytes", type=int, default=0)
    args = ap.parse_args()

    import torch

    torch.set_num_threads(max(1, args.threads))
    # TF32 off (docs/evaluation.md, "Precision"): every worker starts with full fp32 matmuls and convolutions; a
    # candidate that turns it on is found by the static scan (lower precision) and judged by the tolerance.
    if args.device != "cpu":
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
    if args.mode == "compile-only":
        compile_only(args)
    serve(args, torch, socket.socket(fileno=args.sock))


if __name__ == "__main__":
    main()
