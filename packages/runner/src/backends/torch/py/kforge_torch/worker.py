# The torch worker: the only process that imports a candidate (or, in its own sandbox, the reference for the
# baseline). It runs inside bwrap as the sandbox's pid 1 and sees only its box (/w). Nothing it reports is
# trusted: the harness (another process, outside this sandbox) times every call from outside, generates the
# inputs, keeps the expected outputs, checks what lands in the shared memory, and reads this process's cpu time
# (all its threads, ended ones included) from outside.
#
# Protocol: a SOCK_SEQPACKET socket (fd given as --sock), one JSON message per packet. The harness sends
#   {"op": "init", ...} with a sealed memfd (SCM_RIGHTS) holding the parameters, inputs and outputs of a case;
#   {"op": "run"} -> the worker calls forward on the inputs (views of the memfd) and copies the result into the
#   output views; replies {"op": "done"} or {"op": "error", "message": ...}.
#
# The worker's own code is kept out of the candidate's easy reach (issue 31: a candidate replaced `Case.run` and
# `send`, then globals of this module, through names built at run time): nothing of it is a global of `__main__`
# but `main`; the loop's case runner and reply path are locals of the running `serve` frame, bound (with the
# socket's own methods and the JSON codec) before the candidate is imported, so patching this module, `socket`,
# `json` or `torch` afterwards changes nothing here. That is defence in depth only: anything in this process can be
# reached (frames, `gc`, `ctypes`), and what the harness measures does not depend on any of it.
import argparse
import array
import ast
import functools
import importlib.util
import json
import mmap
import os
import socket
import sys
import traceback


def install_prebuilt_loader():
    """In the run sandbox (read-only box, no fork) load_inline cannot build: serve the extensions the compile
    step built (box/ext/manifest.json maps each extension name to its .so) instead."""
    manifest_path = "/w/ext/manifest.json"
    if not os.path.exists(manifest_path):
        return
    with open(manifest_path, encoding="utf-8") as f:
        manifest = json.load(f)
    import torch.utils.cpp_extension as ext

    def load_prebuilt(name, *a, **k):
        so = manifest.get(name)
        if so is None:
            raise RuntimeError(f"extension {name} was not built in the compile step")
        spec = importlib.util.spec_from_file_location(name, so)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    ext.load_inline = load_prebuilt
    ext.load = load_prebuilt


def record_builds():
    """Compile step: let load_inline build (in /w/ext) and note where each extension's .so landed."""
    import torch.utils.cpp_extension as ext

    built = {}
    real_inline, real_load = ext.load_inline, ext.load

    def wrap(real):
        def f(name, *a, **k):
            k.setdefault("build_directory", None)
            mod = real(name, *a, **k)
            built[name] = getattr(mod, "__file__", None)
            return mod

        return f

    ext.load_inline = wrap(real_inline)
    ext.load = wrap(real_load)
    return built


def import_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def compile_only(args):
    os.environ.setdefault("TORCH_EXTENSIONS_DIR", "/w/ext")
    os.makedirs("/w/ext", exist_ok=True)
    built = record_builds()
    try:
        mod = import_module(args.module, "candidate")
        if not hasattr(mod, args.cls):
            print(f"the file defines no class {args.cls}", file=sys.stderr)
            sys.exit(3)
    except SystemExit:
        raise
    except BaseException:
        traceback.print_exc()
        sys.exit(2)
    with open("/w/ext/manifest.json", "w", encoding="utf-8") as f:
        json.dump({k: v for k, v in built.items() if v}, f)
    sys.exit(0)


class _Case:
    """One case: views of the harness's memfd (parameters, inputs, outputs) and the model built on them. Staged
    (a cuda device, or --staged on the cpu): the model and its own copies of the inputs live on the device
    (`dev_inputs`), the last call's outputs stay there (`last`) until the harness asks for them."""

    __slots__ = ("mm", "buf", "inputs", "outputs", "model", "fn", "copied", "dev_inputs", "last")


def _compile_baseline(torch, model, inputs):
    """The compiled baseline on a cuda device: torch.compile (mode default), as KernelBench and the field compare
    against. Its first calls (the warm-up) compile."""
    return torch.compile(model)


def _build_case(torch, dtypes, model_cls, mode, msg, fd, device="cpu", staged=False):
    case = _Case()
    case.mm = mmap.mmap(fd, msg["size"], mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
    os.close(fd)
    case.buf = memoryview(case.mm)

    def view(d):
        dt = dtypes[d["dtype"]]
        n = 1
        for s in d["shape"]:
            n *= s
        t = torch.frombuffer(case.buf, dtype=dt, count=n, offset=d["offset"]) if n > 0 else torch.empty(0, dtype=dt)
        return t.view(d["shape"])

    def value(d):
        return view(d) if "offset" in d else ast.literal_eval(d["repr"])

    case.inputs = [value(d) for d in msg["inputs"]]
    case.outputs = [view(d) for d in msg["outputs"]]
    init = [ast.literal_eval(r) for r in msg["init_args"]]
    torch.manual_seed(msg["ctor_seed"])
    case.model = model_cls(*init)
    # The same initial parameters as the reference: copy its state where names and shapes match.
    ref = {p["name"]: view(p) for p in msg["params"]}
    copied = []
    with torch.no_grad():
        for name, t in case.model.state_dict().items():
            r = ref.get(name)
            if r is not None and tuple(r.shape) == tuple(t.shape) and r.dtype == t.dtype:
                t.copy_(r)
                copied.append(name)
    case.copied = copied
    case.dev_inputs = case.inputs
    case.last = None
    if staged:
        case.model = case.model.to(device)
        case.dev_inputs = [x.to(device) if isinstance(x, torch.Tensor) else x for x in case.inputs]
    case.fn = case.model
    if mode == "compile":
        case.model.eval()
        case.fn = _compile_baseline(torch, case.model, case.dev_inputs)
    if mode == "freeze":
        case.model.eval()
        with torch.no_grad():
            traced = torch.jit.trace(case.model, tuple(case.inputs))
            case.fn = torch.jit.optimize_for_inference(torch.jit.freeze(traced))
    # Warm the thread pools up on the (zero) inputs: a pool's first parallel calls may leave its threads busy for a
    # moment, which the harness would take for work left running after return.
    for _ in range(2):
        try:
            with torch.no_grad():
                case.fn(*case.dev_inputs)
        except Exception:  # noqa: BLE001 - the real calls will say what is wrong
            break
    if staged and device != "cpu":
        torch.cuda.synchronize()
    return case


def _outputs_of(torch, case, out):
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    if len(outs) != len(case.outputs):
        raise RuntimeError(f"forward returned {len(outs)} outputs, the reference {len(case.outputs)}")
    for i, (o, dst) in enumerate(zip(outs, case.outputs)):
        if not isinstance(o, torch.Tensor):
            raise RuntimeError(f"output {i} is a {type(o).__name__}, not a tensor")
        if tuple(o.shape) != tuple(dst.shape):
            raise RuntimeError(f"output {i} has shape {tuple(o.shape)}, the reference {tuple(dst.shape)}")
        if o.dtype != dst.dtype:
            raise RuntimeError(f"output {i} has dtype {o.dtype}, the reference {dst.dtype}")
    return outs


class _Stage:
    """The staged path's timing around a call (the C cuda worker's PREPARE / RUN / FETCH): `prepare` copies the
    harness's inputs to the device's own tensors; `run` synchronizes the whole device, then queues back to back, with
    no host work between them, the L2 flush (a memset of `flush` bytes), the start event, the call, the end event,
    and synchronizes the whole device again (work on every stream counts) before replying; `nop` is a run without
    the call (the round trip the harness subtracts); `fetch` copies the outputs back. The event time is reported as
    the candidate's own clock (`inside_ms`, a fact the harness records beside its own outside time; never trusted).
    On the cpu (--staged) the same protocol with perf_counter instead of events, so its logic is tested without a
    GPU."""

    def __init__(self, torch, device, flush_bytes):
        import time

        self.torch = torch
        self.cuda = device != "cpu"
        self.sync = torch.cuda.synchronize if self.cuda else (lambda: None)
        self.flush = torch.empty(max(1, flush_bytes), dtype=torch.uint8, device=device) if flush_bytes else None
        self.clock = time.perf_counter
        if self.cuda:
            self.start = torch.cuda.Event(enable_timing=True)
            self.end = torch.cuda.Event(enable_timing=True)

    def prepare(self, case):
        for d, h in zip(case.dev_inputs, case.inputs):
            if isinstance(d, self.torch.Tensor) and d is not h:
                d.copy_(h)
        self.sync()

    def timed(self, fn):
        torch, flush = self.torch, self.flush
        self.sync()
        if self.cuda:
            if flush is not None:
                flush.zero_()
            self.start.record()
            out = fn()
            self.end.record()
            self.sync()
            return out, self.start.elapsed_time(self.end)
        if flush is not None:
            flush.zero_()
        t0 = self.clock()
        out = fn()
        return out, (self.clock() - t0) * 1000

    def run(self, case):
        torch = self.torch

        def call():
            with torch.no_grad():
                return case.fn(*case.dev_inputs)

        out, ms = self.timed(call)
        case.last = out
        return ms

    def nop(self):
        return self.timed(lambda: None)[1]

    def fetch(self, case):
        if case.last is None:
            raise RuntimeError("no call to fetch the outputs of")
        outs = _outputs_of(self.torch, case, case.last)
        case.last = None
        for o, dst in zip(outs, case.outputs):
            dst.copy_(o)
        self.sync()


def _run_case(torch, case):
    with torch.no_grad():
        out = case.fn(*case.inputs)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    if len(outs) != len(case.outputs):
        raise RuntimeError(f"forward returned {len(outs)} outputs, the reference {len(case.outputs)}")
    for i, (o, dst) in enumerate(zip(outs, case.outputs)):
        if not isinstance(o, torch.Tensor):
            raise RuntimeError(f"output {i} is a {type(o).__name__}, not a tensor")
        if tuple(o.shape) != tuple(dst.shape):
            raise RuntimeError(f"output {i} has shape {tuple(o.shape)}, the reference {tuple(dst.shape)}")
        if o.dtype != dst.dtype:
            raise RuntimeError(f"output {i} has dtype {o.dtype}, the reference {dst.dtype}")
        dst.copy_(o)


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
    build_case, run_case = _build_case, _run_case
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
    del module
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
