// The torch backend's toolchain: the runner's Python (its `python` setting, KFORGE_PYTHON), its PyTorch and the C++
// compiler load_inline uses. Checked once per process and interpreter.
import { execFileSync } from 'node:child_process';
import { DEFAULT_PYTHON } from '../../settings.js';

export interface TorchToolchain {
  ok: boolean;
  /** Why not, when not ok. */
  reason?: string;
  versions: Record<string, string>;
  /** Folders outside /usr the interpreter and its packages live in (a virtual environment, /opt, /root/.local):
      every sandbox of the torch backend mounts them read-only. */
  roots?: string[];
  /** Folders to put on PATH in the sandbox, before /usr/bin: where ninja is (load_inline builds with it) when it is
      not in /usr/bin, such as the virtual environment's own bin folder (pip's ninja). */
  binDirs?: string[];
}

/** Prints the interpreter's prefixes and torch's folder, one a line, after the versions; then the folder of the ninja
    load_inline would run (torch.utils.cpp_extension runs `ninja` from PATH), looked for beside the interpreter first,
    as a virtual environment's activation would: on the GPU machines PyTorch lives in a venv whose pip-installed ninja
    is only in its bin folder, and load_inline answered "Ninja is required to load C++ extensions" in the sandbox. */
const ROOTS_PROBE =
  'import sys, os, shutil\nfor p in {os.path.realpath(sys.prefix), os.path.realpath(sys.base_prefix), os.path.realpath(os.path.dirname(sys.executable))} | {os.path.realpath(p) for p in sys.path if p and os.path.isdir(p)}: print("root:" + p)\nn = shutil.which("ninja", path=os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")]))\nif n: d = os.path.realpath(os.path.dirname(n)); print("root:" + d); print("bin:" + d)';

/** The PATH folders of `lines` (`bin:<path>`) a sandbox needs beyond /usr/bin and /bin. */
export function binDirsOf(lines: readonly string[]): string[] {
  const dirs = lines.filter((l) => l.startsWith('bin:')).map((l) => l.slice(4).trim());
  return [...new Set(dirs.filter((d) => d.startsWith('/') && !/^\/(usr\/)?bin$/.test(d)))];
}

/** The folders of `lines` (`root:<path>`) that a sandbox does not already see (anything outside /usr, /tmp and /w). */
export function outsideRoots(lines: readonly string[]): string[] {
  const paths = lines.filter((l) => l.startsWith('root:')).map((l) => l.slice(5).trim());
  const outside = paths.filter((p) => p.startsWith('/') && !/^\/(usr|tmp|w|proc|dev)(\/|$)/.test(p) && p !== '/');
  // The outermost of nested folders only.
  return [...new Set(outside)].filter((p) => !outside.some((q) => q !== p && p.startsWith(`${q}/`))).sort();
}

const full = new Map<string, TorchToolchain>();
const quick = new Map<string, TorchToolchain>();

function cxxVersion(): string | undefined {
  try {
    return execFileSync('c++', ['--version'], { encoding: 'utf8', timeout: 10_000 }).split('\n')[0] ?? '';
  } catch {
    /* no compiler: load_inline candidates fail to compile, others run */
    return undefined;
  }
}

/** Python, PyTorch and the C++ compiler load_inline uses (imports torch: seconds, once per interpreter). */
export function torchToolchain(python: string = DEFAULT_PYTHON): TorchToolchain {
  const known = full.get(python);
  if (known) return known;
  let tc: TorchToolchain;
  try {
    const out = execFileSync(
      python,
      [
        '-I',
        '-c',
        `import platform, torch; print(platform.python_version()); print(torch.__version__); print(torch.version.cuda or "")\n${ROOTS_PROBE}`,
      ],
      { encoding: 'utf8', timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'] },
    ).split('\n');
    const versions: Record<string, string> = { python: out[0] ?? '', torch: out[1] ?? '' };
    if (out[2]) versions.cuda = out[2];
    const cxx = cxxVersion();
    if (cxx !== undefined) versions.cxx = cxx;
    const roots = outsideRoots(out);
    const binDirs = binDirsOf(out);
    tc = { ok: true, versions, ...(roots.length ? { roots } : {}), ...(binDirs.length ? { binDirs } : {}) };
  } catch (e) {
    tc = {
      ok: false,
      reason: `PyTorch is not importable by ${python} (install python3-torch, or set KFORGE_PYTHON): ${String((e as Error).message).split('\n')[0]}`,
      versions: {},
    };
  }
  full.set(python, tc);
  return tc;
}

/** Finds torch and reads its version file without importing it (which takes seconds). */
const QUICK_PROBE =
  'import importlib.util, os, platform\ns = importlib.util.find_spec("torch")\nprint(platform.python_version())\nif s:\n    ns = {}\n    exec(open(os.path.join(os.path.dirname(s.origin), "version.py")).read(), ns)\n    print(ns.get("__version__", "?")); print(ns.get("cuda") or "")';

/**
 * What a device reports (cheap: no import of torch): the toolchain versions, or why pytorch problems are unavailable
 * here. The full check's answer when it has run.
 */
export function torchToolchainQuick(python: string = DEFAULT_PYTHON): TorchToolchain {
  const known = full.get(python) ?? quick.get(python);
  if (known) return known;
  let tc: TorchToolchain;
  try {
    const out = execFileSync(python, ['-I', '-c', QUICK_PROBE], {
      encoding: 'utf8',
      timeout: 20_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    }).split('\n');
    const versions: Record<string, string> = { python: out[0] ?? '' };
    const cxx = cxxVersion();
    if (cxx !== undefined) versions.cxx = cxx;
    if (!out[1]) tc = { ok: false, reason: `no PyTorch for ${python} (install python3-torch)`, versions };
    else {
      versions.torch = out[1];
      if (out[2]) versions.cuda = out[2];
      tc = { ok: true, versions };
    }
  } catch (e) {
    tc = { ok: false, reason: `${python} did not run: ${String((e as Error).message).split('\n')[0]}`, versions: {} };
  }
  quick.set(python, tc);
  return tc;
}

/** Why this runner's PyTorch cannot run a pytorch problem on a cuda device; null when it can. */
export function torchCudaUnavailable(versions: Record<string, string>): string | null {
  if (!versions.torch) return 'no PyTorch';
  if (!versions.cuda) return `this runner's PyTorch (${versions.torch}) is built without CUDA`;
  const major = Number(versions.torch.split('.')[0]);
  if (!(major >= 2)) return `PyTorch ${versions.torch} is too old for the CUDA path (2.0 or later)`;
  return null;
}
