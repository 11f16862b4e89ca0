// Finds files shipped with the package (the C sources) from src/ and from dist/ alike.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'c'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the runner package root');
    dir = up;
  }
  root = dir;
  return dir;
}

export const cSourceDir = (): string => join(packageRoot(), 'c');
