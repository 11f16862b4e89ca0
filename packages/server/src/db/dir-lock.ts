// One process at a time on an embedded (PGlite) data directory. PGlite has no postmaster to refuse a second
// opener: two servers (or a server and `kforge-server create-user`) on one directory would each write its
// pages, and the second one's shutdown checkpoint corrupts the first one's database.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from '../config.js';

export const LOCK_FILE = 'kforge-server.lock';

/**
 * A process's identity: its pid and, on Linux, its start time (field 22 of /proc/PID/stat), so that a pid reused
 * after a restart (a container's server is often pid 1 every time) does not look like the old holder.
 */
function identity(pid: number): string | null {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return `${pid} ${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
  } catch {
    return `${pid}`; // no /proc (not Linux): the pid alone
  }
}

/**
 * Takes `<dataDir>/kforge-server.lock` (O_EXCL, holding this pid), taking over a lock whose process is gone.
 * Throws, saying what to do, when a live process holds it. Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${identity(process.pid) ?? process.pid}\n`);
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let recorded = '';
      try {
        recorded = readFileSync(path, 'utf8').trim();
      } catch {
        // Removed between our open and read: try again.
      }
      const pid = Number.parseInt(recorded, 10);
      const current = Number.isInteger(pid) && pid > 0 ? identity(pid) : null;
      // Held while the recorded process is still the same process (this one included: one opener per process too).
      if (current !== null && (current === recorded || !recorded.includes(' ') || !current.includes(' '))) {
        throw new StartupError(
          `another kforge process (pid ${pid}) is using the data directory ${dataDir}. Stop it first, or point ` +
            `KFORGE_DATA_DIR at another directory (remove ${path} only if no such process exists).`,
        );
      }
      rmSync(path, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`could not lock the data directory ${dataDir} (${path})`);
}
