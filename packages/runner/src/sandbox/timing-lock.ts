// The host-wide lock a runner holds while it times a candidate on a device, so two runners (or two servers)
// on one machine never time at the same moment. Compiles and correctness checks do not take it.
import { chmodSync, existsSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the lock files live: /run/lock when it is there and writable (shared by every user of the host),
    else the system's temp folder. Never a data directory: two servers with different ones share a machine. */
export function timingLockDir(): string {
  const env = process.env.KFORGE_TIMING_LOCK_DIR;
  if (env) return env;
  return existsSync('/run/lock') ? '/run/lock' : tmpdir();
}

/** How long a harness waits for another runner's timed phase on the same device before it times anyway (and
    says so); c/harness_phase.c KF_LOCK_WAIT_MS. */
export const TIMING_LOCK_WAIT_MS = 120_000;

export function timingLockPath(deviceId: string): string {
  return join(timingLockDir(), `kforge-timing-${deviceId.replace(/[^A-Za-z0-9_.-]/g, '_')}.lock`);
}

/**
 * An open fd on the device's lock file (the harness flocks it around its timed phase), or null when it
 * cannot be opened (the run then times without it, and its report says so).
 */
export function openTimingLock(deviceId: string): number | null {
  const path = timingLockPath(deviceId);
  try {
    const fd = openSync(path, 'a', 0o666);
    try {
      // Runners of other users on the host must be able to open it too (the umask may have narrowed it).
      chmodSync(path, 0o666);
    } catch {
      /* another user's file: opening it was enough */
    }
    return fd;
  } catch {
    return null;
  }
}
