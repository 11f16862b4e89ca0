// Owner-only files: the data directory (database, secret) and the runner's scratch folder are no one else's business.
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from '../config.js';

/** Files and folders created from now on by this process are 0600/0700 (PGlite creates its files with 0666 & ~umask). */
export function restrictUmask(): void {
  process.umask(0o077);
}

/** Folders 0700, files 0600, under `dir` and `dir` itself; symbolic links are left alone. Fixes installs made before. */
export function makePrivate(dir: string): void {
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st || st.isSymbolicLink()) return;
  if (st.isDirectory()) {
    if ((st.mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
    for (const name of readdirSync(dir)) makePrivate(join(dir, name));
  } else if (st.isFile() && (st.mode & 0o077) !== 0) {
    chmodSync(dir, st.mode & 0o700);
  }
}

/**
 * Creates `dir` (0700) or checks an existing one: a real folder (not a link), owned by this user, then 0700.
 * A shared temp folder is where another local user could plant a folder or link for us to build and run in.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (st.isSymbolicLink() || !st.isDirectory())
    throw new StartupError(`${dir} must be a folder, not a link or a file: remove it, or set KFORGE_RUNNER_WORK_DIR`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid())
    throw new StartupError(
      `${dir} belongs to another user (uid ${st.uid}): remove it, or set KFORGE_RUNNER_WORK_DIR to a folder of yours`,
    );
  if ((st.mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
}
