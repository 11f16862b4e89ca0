// The static scan of Python submissions (issue 18): every kind of finding is caught, with its line, and honest
// files (the reference problems, the honest candidates, C++ inside strings) give none. No Python needed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pythonReviewReasons } from '../src/index.js';
import { repoRoot } from './helpers.js';

/** A minimal ModelNew whose forward body is `body` (indented by the caller's lines). */
const model = (top: string, forward = 'return torch.relu(x)') => `import torch
import torch.nn as nn
${top}

class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        ${forward}
`;

const pyFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? pyFiles(join(dir, e.name)) : e.name.endsWith('.py') ? [join(dir, e.name)] : [],
  );

describe('pythonReviewReasons', () => {
  const cases: Array<[string, string, RegExp]> = [
    // try/except fallbacks
    [
      'an except that falls back',
      model('', 'try:\n            return fast(x)\n        except Exception:\n            return torch.relu(x)'),
      /^line 12: a try\/except fallback/,
    ],
    ['a bare except: pass on one line', model('try: import fastlib\nexcept: pass'), /^line 4: a try\/except fallback/],
    [
      'an except that re-raises, then returns',
      model(
        '',
        'try:\n            return f(x)\n        except RuntimeError:\n            if x.dim() == 2:\n                return x\n            raise',
      ),
      /try\/except fallback/,
    ],
    [
      'contextlib.suppress',
      model(
        'from contextlib import suppress',
        'with suppress(Exception):\n            return f(x)\n        return torch.relu(x)',
      ),
      /^line 10: a try\/except fallback \(contextlib\.suppress\)/,
    ],
    // threads and processes
    [
      'threading',
      model('import threading', 'threading.Thread(target=print).start()\n        return x'),
      /^lines 3 and 10: a thread or process is started \(threading\)/,
    ],
    [
      'concurrent.futures',
      model('from concurrent.futures import ThreadPoolExecutor'),
      /^line 3: a thread or process is started \(concurrent/,
    ],
    [
      'multiprocessing under an alias',
      model('import multiprocessing as mp'),
      /thread or process is started \(multiprocessing\)/,
    ],
    [
      'os.fork imported by name',
      model('from os import fork', 'fork()\n        return x'),
      /^lines 3 and 10: a thread or process is started \(os\.fork\)/,
    ],
    ['subprocess', model('import subprocess'), /thread or process is started \(subprocess\)/],
    ['asyncio', model('import asyncio'), /thread or process is started \(asyncio\)/],
    [
      'os.system',
      model('import os', 'os.system("true")\n        return x'),
      /^line 10: a thread or process is started \(os\.system\)/,
    ],
    [
      'torch.jit.fork',
      model('', 'fut = torch.jit.fork(torch.relu, x)\n        return x'),
      /thread or process is started \(torch\.jit\.fork\)/,
    ],
    // streams
    [
      'torch.cuda.Stream',
      model('', 's = torch.cuda.Stream()\n        return x'),
      /^line 10: a CUDA stream or non-blocking copy is used \(torch\.cuda\.Stream\)/,
    ],
    [
      'with torch.cuda.stream',
      model('', 'with torch.cuda.stream(s):\n            return x'),
      /CUDA stream .*\(torch\.cuda\.stream\)/,
    ],
    [
      'non_blocking',
      model('', 'return x.to("cuda", non_blocking=True)'),
      /^line 10: a CUDA stream or non-blocking copy is used \(non_blocking\)/,
    ],
    // monkeypatching
    [
      'a timer assigned',
      model('import time\ntime.perf_counter = lambda: 0.0'),
      /^line 4: .*monkeypatched \(time\.perf_counter =\)/,
    ],
    [
      'a torch function assigned through an alias',
      model('import torch.nn.functional as F\nF.relu = lambda x: x'),
      /monkeypatched \(torch\.nn\.functional\.relu =\)/,
    ],
    [
      'a Tensor method assigned',
      model('torch.Tensor.__eq__ = lambda a, b: True'),
      /monkeypatched \(torch\.Tensor\.__eq__ =\)/,
    ],
    [
      'an alias of torch assigned',
      model('t = torch\nt.allclose = lambda *a: True'),
      /^line 4: .*monkeypatched \(torch\.allclose =\)/,
    ],
    [
      'setattr on torch',
      model('setattr(torch, "allclose", lambda *a, **k: True)'),
      /monkeypatched \(setattr\(torch, \.\.\.\)\)/,
    ],
    ['builtins', model('import builtins\nbuiltins.print = None'), /^lines 3 and 4: .*monkeypatched \(builtins/],
    ['__builtins__', model('__builtins__["len"] = None'), /monkeypatched \(__builtins__\)/],
    [
      '__torch_function__',
      model(
        'class T(torch.Tensor):\n    @classmethod\n    def __torch_function__(cls, f, t, a=(), k=None):\n        return 0',
      ),
      /monkeypatched \(__torch_function__\)/,
    ],
    ['an augmented assignment', model('import time\ntime.time += 1'), /monkeypatched \(time\.time =\)/],
    // precision downcasts
    ['.half()', model('', 'return x.half().float()'), /^line 10: a lower precision is used \(x\.half\)/],
    ['.bfloat16()', model('', 'return torch.relu(x).bfloat16().float()'), /lower precision is used \(\.bfloat16\)/],
    ['torch.float16', model('', 'return x.to(dtype=torch.float16)'), /lower precision is used \(torch\.float16\)/],
    ['torch.half', model('', 'return x.to(torch.half)'), /lower precision is used \(torch\.half\)/],
    [
      'autocast',
      model('from torch.cuda.amp import autocast', 'with autocast():\n            return x'),
      /^lines 3 and 10: a lower precision is used \(amp\.autocast\)/,
    ],
    [
      'torch.autocast',
      model('', 'with torch.autocast("cpu"):\n            return x'),
      /lower precision is used \(torch\.autocast\)/,
    ],
    ['TF32', model('torch.backends.cuda.matmul.allow_tf32 = True'), /lower precision is used \(matmul\.allow_tf32\)/],
    [
      'matmul precision',
      model('torch.set_float32_matmul_precision("medium")'),
      /lower precision is used \(torch\.set_float32_matmul_precision\)/,
    ],
    [
      'half in C++ source',
      model('src = """\n#include <cuda_fp16.h>\n__global__ void k(const float* a, __half* b) {}\n"""'),
      /^line 5: a lower precision is used \(__half in C\+\+ source\)/,
    ],
    // the process: __main__, sys.modules, frames, gc, ctypes
    [
      'sys.modules["__main__"]',
      model('import sys', 'out = sys.modules["__main__"]\n        return x'),
      /^line 10: the process is inspected \(sys\.modules and "__main__"\)/,
    ],
    ['import __main__', model('import __main__'), /process is inspected \(__main__\)/],
    [
      'sys._getframe',
      model('import sys', 'f = sys._getframe(1).f_back.f_globals\n        return x'),
      /process is inspected \(sys\._getframe, \.f_back and f_back\.f_globals\)/,
    ],
    [
      'inspect.stack',
      model('import inspect', 'inspect.stack()\n        return x'),
      /process is inspected \(inspect\.stack\)/,
    ],
    [
      'inspect.currentframe',
      model('from inspect import currentframe as cf', 'cf().f_back\n        return x'),
      /process is inspected \(inspect\.currentframe and \.f_back\)/,
    ],
    [
      'gc.get_objects',
      model('import gc', 'gc.get_objects()\n        return x'),
      /process is inspected \(gc\.get_objects\)/,
    ],
    ['ctypes', model('import ctypes'), /^line 3: the process is inspected \(ctypes\)/],
    [
      'getattr with a frame name',
      model('import sys', 'f = getattr(sys, "_getframe")(1)\n        return x'),
      /process is inspected \("_getframe"\)/,
    ],
    // names built at run time, namespaces as dicts, closures, descriptors (issue 31)
    [
      'getattr on a name built at run time',
      model('import sys', 'm = getattr(sys, "mod" + "ules")["__" + "main__"]\n        return x'),
      /^line 10: the process is inspected \(getattr with a name built at run time\)/,
    ],
    [
      'setattr and delattr on a variable name',
      model('', 'setattr(obj, name, f)\n        delattr(obj, other)\n        return x'),
      /^lines 10 and 11: the process is inspected \(setattr with a name built at run time and delattr with a/,
    ],
    [
      'getattr on an f-string name',
      model('', 'return getattr(self, f"{a}{b}")(x)'),
      /process is inspected \(getattr with a name built at run time\)/,
    ],
    ['vars()', model('', 'g = vars(m)\n        return x'), /process is inspected \(vars\)/],
    ['globals()', model('', 'g = globals()\n        return x'), /process is inspected \(globals\)/],
    ['__dict__', model('', 'g = type(self).__dict__\n        return x'), /process is inspected \(\.__dict__\)/],
    [
      'a closure cell',
      model('', 'f.__closure__[0].cell_contents = g\n        return x'),
      /process is inspected \(f\.__closure__ and \.cell_contents\)/,
    ],
    [
      "a function's code swapped",
      model('', 'f.__code__ = g.__code__\n        return x'),
      /process is inspected \(f\.__code__ and g\.__code__\)/,
    ],
    [
      "the socket's send queue",
      model('import fcntl, termios', 'fcntl.ioctl(11, termios.TIOCOUTQ, b)\n        return x'),
      /process is inspected \(fcntl and termios\)/,
    ],
    [
      'a raw write to a descriptor',
      model('import os', 'os.write(11, b"{}")\n        return x'),
      /process is inspected \(os\.write\)/,
    ],
    [
      'ctypes.pythonapi by name',
      model('import ctypes as c', 'getattr(c, "pythonapi")\n        return x'),
      /process is inspected \(ctypes and "pythonapi"\)/,
    ],
    [
      'Python reached from C++',
      model('src = r"""\n#include <torch/extension.h>\nvoid f() { auto m = py::module_::import("__main__"); }\n"""'),
      /process is inspected \(py::module_::import in C\+\+ source/,
    ],
    // dynamic code
    ['exec', model('exec("import threading")'), /^line 3: code is run or imported dynamically \(exec\)/],
    ['eval', model('', 'return eval("x")'), /code is run or imported dynamically \(eval\)/],
    ['compile', model('code = compile("1", "f", "eval")'), /code is run or imported dynamically \(compile/],
    ['__import__', model('m = __import__("o" + "s")'), /code is run or imported dynamically \(__import__\)/],
    ['importlib', model('import importlib'), /code is run or imported dynamically \(importlib\)/],
    [
      'exec hidden in an f-string',
      model('x = f"{exec(\'1\')}"'),
      /^line 3: code is run or imported dynamically \(exec\)/,
    ],
    ['a full-width exec (NFKC)', model('ｅｘｅｃ("1")'), /code is run or imported dynamically \(exec\)/],
    // files, environment, network
    [
      '/proc',
      model('', 'p = "/proc/self/maps"\n        return x'),
      /^line 10: files outside the module are read \(\/proc\)/,
    ],
    ['open', model('data = open("/w/plan.json").read()'), /files outside the module are read \(open\)/],
    ['os.listdir', model('import os\nnames = os.listdir("/")'), /files outside the module are read \(os\.listdir\)/],
    ['torch.load', model('w = torch.load("expected.pt")'), /files outside the module are read \(torch\.load\)/],
    [
      'os.environ',
      model('import os\nseed = os.environ.get("SEED")'),
      /^line 4: the environment is read \(os\.environ\)/,
    ],
    ['os.getenv', model('from os import getenv'), /environment is read \(os\.getenv\)/],
    ['socket', model('import socket'), /the network is used \(socket\)/],
  ];
  for (const [name, source, reason] of cases) {
    it(`finds ${name}`, () => {
      const reasons = pythonReviewReasons(source);
      expect(
        reasons.some((r) => reason.test(r)),
        reasons.join('\n'),
      ).toBe(true);
    });
  }

  it('an except that only re-raises is not a fallback', () => {
    const src = model(
      '',
      'try:\n            return f(x)\n        except RuntimeError as e:\n            log(e)\n            raise ValueError("no") from e',
    );
    expect(pythonReviewReasons(src)).toEqual([]);
  });

  it('comments, strings and look-alikes are not code', () => {
    const src = model(
      [
        '# import threading; time.perf_counter = 0; x.half(); exec("1")',
        'DOC = "uses threading, torch.cuda.Stream, x.half() and exec(code) in prose"',
        'def exec_time(): return 0',
        'pattern = __import_rules = 1',
        'import re',
        'rx = re.compile("a+")',
        'fast = torch.compile',
        'if __name__ == "__main__":',
        '    print("ok")',
      ].join('\n'),
      'self.eval()\n        half = x.shape[0] // 2\n        return x[:half]',
    );
    expect(pythonReviewReasons(src)).toEqual([]);
  });

  it("C++ source's threads, streams and std::thread in a load_inline string are not findings", () => {
    const src = model(
      `from torch.utils.cpp_extension import load_inline
cpp = r"""
#include <torch/extension.h>
#include <thread>
// __half is not used here
torch::Tensor f(torch::Tensor x) {
  auto stream = at::cuda::getCurrentCUDAStream();
  std::thread t([]{}); t.join();
  #pragma omp parallel for
  for (int i = 0; i < 4; i++) {}
  return x; // exec(x), time.perf_counter = 0
}
"""
ext = load_inline(name="f", cpp_sources=cpp, functions=["f"], extra_cflags=["-O3", "-fopenmp"])`,
      'return ext.f(x)',
    );
    expect(pythonReviewReasons(src)).toEqual([]);
  });

  it('load_inline CUDA and Triton answers (issue 33): own streams, downcasts, ATen operators, device branches', () => {
    const q = '"'.repeat(3);
    const cuda = (body: string) =>
      model(
        `from torch.utils.cpp_extension import load_inline\ncuda_src = r${q}\n#include <torch/extension.h>\n${body}\n${q}`,
      );
    const reasons = (src: string) => pythonReviewReasons(src).join('\n');
    expect(reasons(cuda('cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);'))).toMatch(
      /CUDA stream or non-blocking copy is used \(cudaStreamCreateWithFlags in C\+\+ source/,
    );
    expect(reasons(cuda('auto s = at::cuda::getStreamFromPool();'))).toMatch(/getStreamFromPool in C\+\+ source/);
    expect(reasons(cuda('__global__ void k(__nv_fp8_e4m3* x) {}'))).toMatch(/lower precision is used \(__nv_fp8_e4m3/);
    expect(reasons(cuda('cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);'))).toMatch(/CUBLAS_TF32_TENSOR_OP_MATH/);
    expect(
      reasons(cuda('torch::Tensor f(torch::Tensor a, torch::Tensor b) { return at::gelu(at::matmul(a, b)); }')),
    ).toMatch(/C\+\+ source calls PyTorch's own operators \(at::gelu in C\+\+ source\)/);
    // Plumbing is not: allocation, the current stream, options.
    expect(
      reasons(
        cuda(
          'torch::Tensor f(torch::Tensor x) { auto y = torch::empty_like(x); auto s = at::cuda::getCurrentCUDAStream(); auto z = torch::zeros({4}, x.options()); return y; }',
        ),
      ),
    ).toBe('');
    // Triton: downcasts and TF32 in tl.dot.
    const triton = (body: string) => model(`import triton\nimport triton.language as tl\n${body}`);
    expect(reasons(triton('def k(x):\n    return x.to(tl.float16)'))).toMatch(/lower precision is used \(.*float16/);
    expect(reasons(triton('def k(a, b):\n    return tl.dot(a, b, allow_tf32=True)'))).toMatch(
      /lower precision is used \(allow_tf32\)/,
    );
    expect(reasons(triton('def k(a, b):\n    return tl.dot(a, b, input_precision="tf32")'))).toMatch(
      /lower precision is used \("tf32"\)/,
    );
    expect(reasons(triton('def k(a, b):\n    return tl.dot(a, b, input_precision="ieee")'))).toBe('');
    // A path chosen by device: where it is judged, the other branch may run.
    expect(reasons(model('', 'if not x.is_cuda:\n            return torch.relu(x)\n        return x'))).toMatch(
      /a path chosen by device or CUDA availability \(x\.is_cuda\)/,
    );
    expect(reasons(model('USE = torch.cuda.is_available()'))).toMatch(/torch\.cuda\.is_available/);
  });

  it('one reason per kind, naming each line and what was found there', () => {
    const src = model('import time\ntime.time = None\ntime.monotonic = None', 'return x.half()');
    expect(pythonReviewReasons(src)).toEqual([
      'lines 4 and 5: a timer, torch function or builtin may be monkeypatched (time.time = and time.monotonic =): what the harness measures or compares may change',
      'line 12: a lower precision is used (x.half): results may lose accuracy that the tolerance hides',
    ]);
  });

  it('the honest candidates and every reference problem give no findings', () => {
    const files = [
      ...pyFiles(join(repoRoot, 'packages/runner/test/torch-candidates')),
      ...pyFiles(join(repoRoot, 'problems/pytorch')),
    ];
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      expect(pythonReviewReasons(text), f).toEqual([]);
      // The reference renamed to ModelNew, as an honest submission starts.
      expect(pythonReviewReasons(text.replace(/\bModel\b/g, 'ModelNew')), f).toEqual([]);
    }
  });

  it('the cheat suite is flagged where its cheat shows in the source', () => {
    const dir = join(repoRoot, 'packages/runner/test/torch-cheats');
    const flagged = (f: string) => pythonReviewReasons(readFileSync(join(dir, f), 'utf8')).join('\n');
    expect(flagged('background_thread.py')).toMatch(/thread or process is started \(threading\)/);
    expect(flagged('call_reference.py')).toMatch(/dynamically \(__import__ and exec\)/);
    expect(flagged('low_precision.py')).toMatch(/lower precision is used \(torch\.bfloat16\)/);
    expect(flagged('monkeypatch.py')).toMatch(/monkeypatched \(time\.perf_counter =/);
    expect(flagged('slow_clock_patch.py')).toMatch(/monkeypatched/);
    expect(flagged('read_expected.py')).toMatch(/\/proc/);
    expect(flagged('read_plan.py')).toMatch(/environment is read/);
    expect(flagged('network_files.py')).toMatch(/network is used \(socket\)/);
    // Issue 31: the worker's own code reached through names built at run time, and the socket watched.
    expect(flagged('patched_reply.py')).toMatch(/process is inspected \(ctypes, fcntl, termios and \d+ more\)/);
    expect(flagged('thread_after_reply.py')).toMatch(/process is inspected \(.*termios/);
    expect(flagged('thread_exits_early.py')).toMatch(/thread or process is started \(threading\)/);
  });
});
