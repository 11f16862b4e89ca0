// What a build calls itself: the package's version and the commit it was built from, e.g. `0.1.0+3f2a9c1b7d4e`.
// From dist/build.json (scripts/build-stamp.mjs, written by the package's build), else from git when run from its
// sources, else the version and the build's time (`0.1.0+built.20261127T1826Z`), else the version alone.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface BuildInfo {
  version?: string;
  commit?: string | null;
  built_at?: string;
}

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

const cache = new Map<string, string>();

/** The version of the package whose folder (holding package.json, and dist/ once built) is `packageRoot`. */
export function buildVersion(packageRoot: string): string {
  const known = cache.get(packageRoot);
  if (known) return known;
  const version = readJson<{ version?: string }>(join(packageRoot, 'package.json'))?.version ?? 'unknown';
  const stamp = readJson<BuildInfo>(join(packageRoot, 'dist', 'build.json'));
  let out: string;
  if (stamp?.commit) out = `${stamp.version ?? version}+${stamp.commit}`;
  else if (stamp?.built_at)
    out = `${stamp.version ?? version}+built.${stamp.built_at.replace(/[-:]/g, '').replace(/\.\d+/, '').slice(0, 13)}Z`;
  else {
    let commit: string | undefined;
    try {
      commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
        cwd: packageRoot,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 5_000,
      }).trim();
    } catch {
      /* no git here */
    }
    out = commit ? `${version}+${commit}` : version;
  }
  cache.set(packageRoot, out);
  return out;
}
