// Packs bench/cuda.mjs for a GPU machine that has no Node workspace: one self-contained ES module (the runner, the sdk
// and their npm dependencies bundled) at packages/runner/.gpu/cuda.mjs, beside the package's c/ sources that the
// runner finds from there, plus this machine's node binary (gzip) and bubblewrap with the libraries it links. Copy the
// repository with packages/runner/.gpu to the GPU machine, then run there (see bench/README.md, "CUDA"):
//   sh packages/runner/.gpu/run.sh [--quick] [case name filter...]
// bench/torch-cuda.mjs (the torch backend on the GPU, issue 33) is packed the same way, beside it, as torch-cuda.mjs with
// its own run-torch.sh (the torch backend's Python package, packages/runner/src/backends/torch/py/kforge_torch, and
// bench/torch_do_bench.py are read from the repository):
//   sh packages/runner/.gpu/run-torch.sh [--quick] [check name filter...]
// bench/cuda-facts.mjs (issue 37: the cuda build facts and the prepared ncu run) likewise, with run-facts.sh:
//   sh packages/runner/.gpu/run-facts.sh [--rehearse] [--save DIR]
// Run here: node bench/cuda-bundle.mjs
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'packages/runner/.gpu');
mkdirSync(join(out, 'lib'), { recursive: true });
const fromTsup = createRequire(createRequire(import.meta.url).resolve('tsup'));
for (const entry of ['cuda', 'torch-cuda', 'cuda-facts'])
  fromTsup('esbuild').buildSync({
    absWorkingDir: root,
    entryPoints: [`bench/${entry}.mjs`],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: join(out, `${entry}.mjs`),
    alias: { '@kernelforge/sdk': './packages/sdk/src', '@kernelforge/runner': './packages/runner/src' },
    // Bundled CommonJS dependencies call require(): give the module one.
    banner: {
      js: "import { createRequire as __kfCreateRequire } from 'node:module'; const require = __kfCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
execFileSync('sh', ['-c', `gzip -1 -c "${process.execPath}" > "${join(out, 'node.gz')}"`]);
const bwrap = execFileSync('sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).trim();
copyFileSync(bwrap, join(out, 'bwrap'));
for (const line of execFileSync('ldd', [bwrap], { encoding: 'utf8' }).split('\n')) {
  const lib = line.match(/=>\s+(\S+)/)?.[1];
  if (lib && !/\/(libc|ld-linux)[.-]/.test(lib)) copyFileSync(lib, join(out, 'lib', basename(lib)));
}
writeFileSync(
  join(out, 'run.sh'),
  `#!/bin/sh
# Runs the cuda checks on a GPU machine from the repository root (written by bench/cuda-bundle.mjs).
set -e
here=packages/runner/.gpu
[ -x /tmp/kf-node ] || gzip -dc $here/node.gz > /tmp/kf-node && chmod +x /tmp/kf-node
if ! command -v bwrap >/dev/null 2>&1; then
  for l in $here/lib/*; do [ -e "/usr/local/lib/$(basename "$l")" ] || cp "$l" /usr/local/lib/; done
  cp $here/bwrap /usr/local/bin/bwrap && chmod +x /usr/local/bin/bwrap && ldconfig
fi
KFORGE_ROOT="$(pwd)" /tmp/kf-node $here/cuda.mjs "$@"
`,
);
writeFileSync(
  join(out, 'run-torch.sh'),
  readFileSync(join(out, 'run.sh'), 'utf8')
    .replace('Runs the cuda checks', 'Runs the torch-on-cuda checks (bench/torch-cuda.mjs)')
    .replace('$here/cuda.mjs', '$here/torch-cuda.mjs'),
);
writeFileSync(
  join(out, 'run-facts.sh'),
  readFileSync(join(out, 'run.sh'), 'utf8')
    .replace('Runs the cuda checks', 'Runs the cuda build facts and ncu checks (bench/cuda-facts.mjs)')
    .replace('$here/cuda.mjs', '$here/cuda-facts.mjs'),
);
console.log(
  `wrote ${out} (cuda.mjs, torch-cuda.mjs, cuda-facts.mjs, node.gz, bwrap, lib/, run.sh, run-torch.sh, run-facts.sh)`,
);
