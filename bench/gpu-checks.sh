#!/bin/sh
# One GPU session's checks in one command (issues 32, 33, 37), for a machine lent for a few minutes: the three
# bundled scripts (node bench/cuda-bundle.mjs first, here) one after another, each under its own time limit so that
# one stuck step cannot take the others' time, each logged whole under $OUT (or /tmp/kforge-gpu-checks) and its
# tail printed. Never two at once: they time the same GPU.
#   sh bench/gpu-checks.sh [--rehearse]      env: KF_T_CUDA, KF_T_TORCH, KF_T_FACTS (seconds for each step)
# Run on the device:
#   run(carry=["packages/runner/.gpu"], timeout_s=600, command="sh bench/gpu-checks.sh")
here=packages/runner/.gpu
out=${OUT:-/tmp/kforge-gpu-checks}
mkdir -p "$out"
[ -f "$here/run.sh" ] || { echo "no $here/run.sh: run 'node bench/cuda-bundle.mjs' first"; exit 2; }
rehearse=""
[ "$1" = "--rehearse" ] && rehearse="--rehearse"
if [ -z "$KFORGE_PYTHON" ]; then
  KFORGE_PYTHON=$(command -v python3)
  [ -n "$rehearse" ] && KFORGE_PYTHON=/usr/bin/python3
fi
export KFORGE_PYTHON
began=$(date +%s)
step() { # name, seconds, script, args...
  name=$1; secs=$2; script=$3; shift 3
  t0=$(date +%s)
  echo "== $name: up to $secs s (at $((t0 - began)) s) =="
  timeout -k 5 "$secs" sh "$here/$script" $rehearse "$@" > "$out/$name.log" 2>&1
  rc=$?
  echo "rc=$rc after $(($(date +%s) - t0)) s" >> "$out/$name.log"
  tail -c 3500 "$out/$name.log"
  echo
}
{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader
  "$KFORGE_PYTHON" -c 'import torch, sys; print("torch", torch.__version__, torch.version.cuda, torch.cuda.is_available())'
  "$KFORGE_PYTHON" -c 'import triton; print("triton", triton.__version__)'
  nvcc --version | tail -2; command -v ncu cuobjdump; nproc; } > "$out/machine.log" 2>&1
cat "$out/machine.log"
# Order and limits from the first run (H200, 2026-11-28; bench/README.md): the PyTorch step first (the most found
# there, nothing of it confirmed since the fixes), then the facts (40 s there), then the C cuda path without the ReLU
# identity it already showed (a ranked case there takes about 80 s: two timed runs to the 30 s ranked budget).
export KFORGE_BENCH_DEADLINE_S=${KF_TORCH_DEADLINE:-230}
step torch "${KF_T_TORCH:-290}" run-torch.sh \
  "identical 101" "identical 106" "identical 201_Gemm_GELU_Scale" "identical 301" "load_inline 101" "triton 101" \
  "wrong" "cheat" "load_inline 201" "triton 201" tuner
step facts "${KF_T_FACTS:-75}" run-facts.sh --save "$out/ncu"
step cuda "${KF_T_CUDA:-190}" run.sh "matmul reference" "hostile: " "relu two passes"
echo "all steps in $(($(date +%s) - began)) s"
