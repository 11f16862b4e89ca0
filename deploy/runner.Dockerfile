# kforge-runner image: the built workspace plus what evaluation needs: bubblewrap (the sandbox), gcc with OpenMP,
# and Debian's CPU PyTorch for pytorch problems.
#   docker build -f deploy/runner.Dockerfile -t kernelforge/runner .
# GPU variant: build on CUDA's devel image (nvcc and the CUDA headers) instead, and run it with the NVIDIA container
# toolkit (`--gpus all`, or `deploy.resources.reservations.devices` in compose):
#   docker build -f deploy/runner.Dockerfile --build-arg BASE=nvidia/cuda:13.0.0-devel-ubuntu24.04 -t kernelforge/runner:cuda .
# (that base has no Node: the NODE_MAJOR step below installs Node 20 from NodeSource when node is missing.)
# bubblewrap needs user namespaces inside the container: run with `--security-opt seccomp=unconfined
# --security-opt apparmor=unconfined` (or a seccomp profile that allows clone/unshare of namespaces).
# Not built on the machines this file was written on (no Docker there): packages/server/test/platform/deploy-files.test.ts checks that it parses
# and that the command it runs exists in the built tree and starts.
ARG BASE=node:20.20-bookworm-slim
FROM node:20.20-bookworm-slim AS build
RUN npm install -g pnpm@10.34.9
WORKDIR /opt/kernelforge
COPY . .
# .git is not in the build context: the commit the build records (scripts/build-stamp.mjs; compose passes it).
ARG KFORGE_BUILD_COMMIT=
RUN pnpm install --frozen-lockfile && pnpm -r --workspace-concurrency=1 build

FROM ${BASE}
ARG NODE_MAJOR=20
RUN apt-get update \
 && apt-get install -y --no-install-recommends bubblewrap gcc g++ libgomp1 libc6-dev python3 ca-certificates curl \
 && (command -v node >/dev/null || (curl -fsSL https://deb.nodesource.com/setup_${NODE_MAJOR}.x | bash - && apt-get install -y nodejs)) \
 && (apt-get install -y --no-install-recommends python3-torch || echo "python3-torch not available: pytorch problems will be reported unavailable") \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/kernelforge
COPY --from=build /opt/kernelforge /opt/kernelforge
RUN useradd --system --create-home --home-dir /var/lib/kforge-runner kforge-runner
ENV KFORGE_PYTHON=/usr/bin/python3
USER kforge-runner
# KFORGE_SERVER_URL (comma-separated replicas, or the balancer) and KFORGE_RUNNER_TOKEN come from the environment.
CMD ["node", "packages/runner/dist/main.js", "--work-dir", "/var/lib/kforge-runner/work"]
