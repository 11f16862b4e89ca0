// Writes dist/build.json for the package in the current folder (run by its build script, after tsup): its version and
// the commit it was built from, so every build names itself (schema_migrations.server_version, a runner's registration).
//   commit: KFORGE_BUILD_COMMIT when set (an image built without .git: docker build --build-arg KFORGE_BUILD_COMMIT=...),
//   else `git rev-parse --short=12 HEAD` (with `-dirty` when tracked files differ), else null (version plus build time).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

function git(args) {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim();
  } catch {
    return null;
  }
}

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
let commit = process.env.KFORGE_BUILD_COMMIT?.trim() || null;
if (!commit) {
  const head = git(['rev-parse', '--short=12', 'HEAD']);
  if (head) commit = git(['status', '--porcelain', '--untracked-files=no', '--', '.'])?.length ? `${head}-dirty` : head;
}
mkdirSync('dist', { recursive: true });
writeFileSync(
  'dist/build.json',
  `${JSON.stringify({ name: pkg.name, version: pkg.version, commit, built_at: new Date().toISOString() })}\n`,
);
