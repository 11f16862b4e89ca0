# kforge-server image: the built workspace on Node 20, serving on 0.0.0.0:8000; no compilers (runners evaluate).
#   docker build -f deploy/server.Dockerfile -t kernelforge/server .
# Not built on the machines this file was written on (no Docker there): packages/server/test/platform/deploy-files.test.ts checks that it parses
# and that the command it runs exists in the built tree and starts.
FROM node:20.20-bookworm-slim AS build
RUN npm install -g pnpm@10.34.9
WORKDIR /opt/kernelforge
COPY . .
# .git is not in the build context: the commit the build records (scripts/build-stamp.mjs; compose passes it).
ARG KFORGE_BUILD_COMMIT=
RUN pnpm install --frozen-lockfile && pnpm -r --workspace-concurrency=1 build

FROM node:20.20-bookworm-slim
WORKDIR /opt/kernelforge
COPY --from=build /opt/kernelforge /opt/kernelforge
RUN mkdir -p /var/lib/kforge && chown node:node /var/lib/kforge && chmod 0700 /var/lib/kforge
# Listen on every interface inside the container (the port mapping or the balancer decides who reaches it); the data
# dir is a volume; evaluation is left to standalone runners (deploy/runner.Dockerfile).
ENV HOST=0.0.0.0 \
    PORT=8000 \
    KFORGE_DATA_DIR=/var/lib/kforge \
    KFORGE_LOCAL_RUNNER=0 \
    NODE_ENV=production
USER node
VOLUME /var/lib/kforge
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "packages/server/dist/main.js"]
