// One evaluation's sandbox on the host: its job folder (removed afterwards), the uid its sandboxes run as and its
// cgroup (limits, and one kill for everything it started). Every backend (C, CUDA, PyTorch) opens one per job.
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { makeShared } from './shared-folder.js';
import { type CgroupLimits, defaultJobCpus, JobCgroup } from './cgroup.js';
import { jobUid, NOBODY_UID } from './spawn.js';

export interface JobSandboxOptions {
  /** The runner's own directory: job folders go under its `jobs/`. */
  workDir: string;
  /** Folders made inside the job folder, e.g. `box` (all a worker sandbox sees). */
  folders: readonly string[];
  /** The job cgroup's limits (jobCgroupLimits gives the usual ones). */
  limits: CgroupLimits;
  /** The runner's jobCgroup setting (KFORGE_JOB_CGROUP): false, no cgroup. */
  jobCgroup: boolean;
  /** Keep the job folder for inspection. */
  keep: boolean;
}

/**
 * The usual job cgroup: memory for the harness's and the worker's copies of the largest case (`largestBytes`) plus
 * the compiler's, processes for the compile's driver tree and OpenMP teams, cpu up to every core.
 */
export function jobCgroupLimits(largestBytes: number): CgroupLimits {
  return {
    memoryBytes: Math.min(Math.floor(totalmem() * 0.75), 6 * 2 ** 30 + 8 * largestBytes),
    pids: 512,
    cpus: defaultJobCpus(),
  };
}

export class JobSandbox {
  private constructor(
    /** The job folder: only the runner and the trusted harness read it. */
    readonly dir: string,
    private sandboxUid: number | undefined,
    /** The job's cgroup, or null where there is none (not root, no cgroupfs, turned off). */
    readonly cgroup: JobCgroup | null,
    private readonly keep: boolean,
  ) {}

  /** Makes the job folder and its folders, picks the job's uid and makes its cgroup. Close it in a `finally`. */
  static open(o: JobSandboxOptions): JobSandbox {
    const dir = join(o.workDir, 'jobs', randomUUID());
    for (const f of o.folders) mkdirSync(join(dir, f), { recursive: true });
    if (o.folders.length === 0) mkdirSync(dir, { recursive: true });
    return new JobSandbox(dir, jobUid(), JobCgroup.create(o.limits, o.jobCgroup), o.keep);
  }

  /** A path inside the job folder. */
  path(...parts: string[]): string {
    return join(this.dir, ...parts);
  }

  /** The uid the job's sandboxes run as when the runner is root (see jobUid); undefined otherwise. */
  get uid(): number | undefined {
    return this.sandboxUid;
  }

  /**
   * Lets the job's sandboxes write `folder` (0777, owned by the job's uid when the runner is root). A root whose
   * user namespace maps only some uids (rootless containers map 65,536) cannot give it the job's own uid: the job
   * then runs as nobody (a fork bomb can then hold up sandboxes beside it).
   */
  share(folder: string): void {
    try {
      makeShared(folder, this.sandboxUid);
    } catch (error) {
      if (this.sandboxUid === undefined) throw error;
      this.sandboxUid = NOBODY_UID;
      makeShared(folder, this.sandboxUid);
    }
  }

  /** Kills what is left in the cgroup, removes it and (unless kept) the job folder. */
  async close(): Promise<void> {
    await this.cgroup?.remove();
    if (!this.keep) rmSync(this.dir, { recursive: true, force: true });
  }
}
