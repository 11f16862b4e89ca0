// A folder the sandbox may write: shared by the backends' builds and the job sandbox (sandbox/job-sandbox.ts).
import { chmodSync, chownSync } from 'node:fs';

export function makeShared(dir: string, uid = 65534): void {
  // The sandbox runs as nobody (or the job's own uid) when the runner is root: let it write here, and nowhere else.
  chmodSync(dir, 0o777);
  if (process.getuid?.() === 0) chownSync(dir, uid, uid);
}
