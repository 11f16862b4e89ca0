"""The torch backend's Python side (packages/runner/src/backends/torch/py/kforge_torch), one module per concern.

The harness (trusted; never imports a candidate): harness (the entry), plan, procfs, checks, stats, workers (its side
of the protocol), reference, correctness, timing. The worker (the candidate's process; nothing it says is trusted):
worker (the entry: protocol and reply path), cases (the case runner), facts (the torch facts of an accepted candidate,
asked for once the timed phase is over), loader (imports and prebuilt extensions). Run apart, in their own sandboxes:
profile (the same facts from a run of their own: cuda, and runs that timed nothing) and inspection (a problem file's
constants and sizes). common: loading a problem file, shared by the harness, the inspector and the profiler.

Each entry runs as `python ... -c 'import sys; sys.path.insert(0, "/w"); from kforge_torch.<entry> import main;
main()' ARGS` with the package copied to /w/kforge_torch: a worker's box gets only the worker's modules (WORKER_MODULES
in ../../py-package.ts). This file imports nothing, so importing one module loads no other part.
"""
