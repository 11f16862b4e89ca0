# How a worker imports a file (the candidate, or the reference for a baseline) and the C++/CUDA extensions its
# load_inline calls build: built once by the compile step (compile_only), loaded prebuilt in the timed workers. Part of
# the worker (runs in the candidate's process; nothing here is trusted).
import importlib.util
import json
import os
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
