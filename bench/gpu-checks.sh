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
# Issue 32 first (the C cuda path's timing and its hostile kernels), then 33 (PyTorch problems on the GPU: identity,
# load_inline and Triton against do_bench, a wrong answer, the GPU's own cheats, the tuner), then 37 (facts, ncu).
step cuda "${KF_T_CUDA:-175}" run.sh "relu reference" "matmul reference" "relu two passes" "hostile: "
export KFORGE_BENCH_DEADLINE_S=${KF_TORCH_DEADLINE:-190}
step torch "${KF_T_TORCH:-255}" run-torch.sh \
  "identical 101" "identical 106" "identical 201_Gemm_GELU_Scale" "load_inline 101" "triton 101" \
  "wrong" "cheat (cuda)" "cheat lazy_fetch" "cheat write_output_view" "load_inline 201" "triton 201" tuner
step facts "${KF_T_FACTS:-130}" run-facts.sh --save "$out/ncu"
echo "all steps in $(($(date +%s) - began)) s"
