// Owner-only files: the data directory (database, secret) and the runner's scratch folder are no one else's business.
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from '../config.js';

/**
 * Files and folders this process creates until `restore()` are 0600/0700 (PGlite creates its files 0666 & ~umask).
 * Not for good: the runner's sandbox runs as another user when the server is root and must read what the runner
 * builds, so the umask goes back once the database is open.
 */
export function restrictUmask(): () => void {
  const previous = process.umask(0o077);
  return () => {
    process.umask(previous);
  };
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
 * The mode of the runner's folder: 0700; 0711 when the server runs as root, because the runner then drops the
 * sandbox to another user (nobody), which must be able to pass through (never list) to its job folder.
 */
export const runnerDirMode = (): number => (process.getuid?.() === 0 ? 0o711 : 0o700);

/**
 * Creates the runner's folder or checks an existing one: a real folder (not a link), owned by this user, then
 * `runnerDirMode()`. A shared temp folder is where another local user could plant a folder or link for us to build
 * and run in.
 */
export function ensurePrivateDir(dir: string): void {
  const mode = runnerDirMode();
  mkdirSync(dir, { recursive: true, mode });
  const st = lstatSync(dir);
  if (st.isSymbolicLink() || !st.isDirectory())
    throw new StartupError(`${dir} must be a folder, not a link or a file: remove it, or set KFORGE_RUNNER_WORK_DIR`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid())
    throw new StartupError(
      `${dir} belongs to another user (uid ${st.uid}): remove it, or set KFORGE_RUNNER_WORK_DIR to a folder of yours`,
    );
  if ((st.mode & 0o777) !== mode) chmodSync(dir, mode);
}
