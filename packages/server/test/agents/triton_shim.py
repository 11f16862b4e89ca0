# Runs a generated Triton kernel on the cpu, without Triton (tuner-torch-gpu.test.ts): a small interpreter of the
# triton.language calls the tuner's generator writes (program ids, aranges, masked loads and stores through pointer
# offsets, where/minimum/maximum/exp/erf/log/sigmoid), so the generated kernel's arithmetic is checked against the
# reference's PyTorch ops here. Usage: python3 triton_shim.py MODELNEW.py  (reads the constants from stdin as JSON)
import json
import sys
import types

import torch

PID = [0]


class Ptr:
    def __init__(self, t, off=None):
        self.t = t.reshape(-1)
        self.off = off

    def __add__(self, off):
        return Ptr(self.t, off if self.off is None else self.off + off)


def _t(a):
    return a if isinstance(a, torch.Tensor) else torch.tensor(a, dtype=torch.float32)


tl = types.ModuleType("triton.language")
tl.constexpr = int
tl.int64 = torch.int64
tl.program_id = lambda axis: torch.tensor(PID[0])
tl.arange = lambda a, b: torch.arange(a, b)


def _load(p, mask=None, other=0.0):
    off = p.off.clamp(0, p.t.numel() - 1)
    v = p.t[off].clone()
    return torch.where(mask, v, _t(other).to(v.dtype)) if mask is not None else v


def _store(p, v, mask=None):
    p.t[p.off[mask]] = _t(v).expand(p.off.shape)[mask].to(p.t.dtype)


tl.load, tl.store = _load, _store
tl.where = lambda c, a, b: torch.where(c, _t(a), _t(b))
tl.minimum = lambda a, b: torch.minimum(_t(a), _t(b))
tl.maximum = lambda a, b: torch.maximum(_t(a), _t(b))
for name in ("exp", "erf", "log", "sigmoid"):
    setattr(tl, name, getattr(torch, name))


class Kernel:
    def __init__(self, fn):
        self.fn = fn

    def __call__(self, *a, **k):
        return self.fn(*a, **k)

    def __getitem__(self, grid):
        def launch(*args, **kw):
            args = [Ptr(a) if isinstance(a, torch.Tensor) else a for a in args]
            for pid in range(grid[0]):
                PID[0] = pid
                self.fn(*args, **kw)

        return launch


triton = types.ModuleType("triton")
triton.jit = Kernel
triton.cdiv = lambda a, b: (a + b - 1) // b
triton.language = tl
sys.modules["triton"] = triton
sys.modules["triton.language"] = tl

src = open(sys.argv[1], encoding="utf-8").read()
consts = json.loads(sys.stdin.read() or "{}")
mod = types.ModuleType("candidate")
exec(compile(src, sys.argv[1], "exec"), mod.__dict__)
for k, v in consts.items():
    setattr(mod, k, v)
torch.manual_seed(0)
init = mod.get_init_inputs()
torch.manual_seed(1)
ref = mod.KfReference(*init)
new = mod.ModelNew(*init)
new.load_state_dict(ref.state_dict())
torch.manual_seed(2)
xs = mod.get_inputs()
with torch.no_grad():
    want = ref(*[x.clone() for x in xs])
    got = new(*[x.clone() for x in xs])
err = float((got - want).abs().max())
print(json.dumps({"max_abs_error": err, "shape": list(got.shape), "numel": got.numel()}))
