// One job sandbox for every backend: its folder, uid and cgroup, and the runner settings that reach it as options.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxAvailable, sandboxName } from '../src/sandbox/bwrap.js';
import { cgroupSupport, JobCgroup } from '../src/sandbox/cgroup.js';
import { JobSandbox, jobCgroupLimits } from '../src/sandbox/job-sandbox.js';
import { runCommand } from '../src/sandbox/spawn.js';
import { DEFAULT_PYTHON, runnerSettingsFromEnv } from '../src/settings.js';

const workDir = mkdtempSync(join(tmpdir(), 'kf-job-sandbox-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));
const root = process.getuid?.() === 0;

describe('a job sandbox', () => {
  it('makes the job folder and its folders, runs commands in its cgroup, and removes both on close', async () => {
    const sb = JobSandbox.open({
      workDir,
      folders: ['box', 'refbox'],
      limits: jobCgroupLimits(1 << 20),
      jobCgroup: true,
      keep: false,
    });
    expect(sb.dir.startsWith(join(workDir, 'jobs'))).toBe(true);
    expect(statSync(sb.path('box')).isDirectory()).toBe(true);
    expect(statSync(sb.path('refbox')).isDirectory()).toBe(true);
    // A root runner gives each job a uid of its own (from a range no account uses) and a cgroup.
    if (root) {
      expect(sb.uid).toBeGreaterThanOrEqual(1_000_000_000);
      expect(sb.cgroup, cgroupSupport().note).not.toBeNull();
      const r = await runCommand(['/bin/sh', '-c', 'id -u; cat /proc/self/cgroup'], {
        cwd: sb.dir,
        timeoutMs: 30_000,
        cgroup: sb.cgroup,
        dropRoot: true,
        ...(sb.uid !== undefined ? { uid: sb.uid } : {}),
      });
      expect(r.stdout.split('\n')[0]).toBe(String(sb.uid));
      expect(r.stdout).toMatch(/kf-\d+-/);
    } else {
      expect(sb.uid).toBeUndefined();
      expect(sb.cgroup).toBeNull();
    }
    sb.share(sb.path('box'));
    expect(statSync(sb.path('box')).mode & 0o777).toBe(0o777);
    if (root) expect(statSync(sb.path('box')).uid).toBe(sb.uid);
    const cgroupDirs = sb.cgroup?.dirs.map((d) => d.dir) ?? [];
    await sb.close();
    expect(existsSync(sb.dir)).toBe(false);
    for (const d of cgroupDirs) expect(existsSync(d)).toBe(false);
  }, 30_000);

  it('keeps the job folder when told to, and makes no cgroup when the runner is told not to', async () => {
    const sb = JobSandbox.open({ workDir, folders: ['box'], limits: jobCgroupLimits(0), jobCgroup: false, keep: true });
    expect(sb.cgroup).toBeNull();
    await sb.close();
    expect(existsSync(sb.path('box'))).toBe(true);
  });
});

describe('the runner settings (KFORGE_PYTHON, KFORGE_JOB_CGROUP), read once at an entry point', () => {
  it('default to /usr/bin/python3 and a cgroup per job; only `0` turns the cgroup off', () => {
    expect(runnerSettingsFromEnv({})).toEqual({ python: DEFAULT_PYTHON, jobCgroup: true });
    expect(DEFAULT_PYTHON).toBe('/usr/bin/python3');
    expect(runnerSettingsFromEnv({ KFORGE_PYTHON: '/opt/py/bin/python3', KFORGE_JOB_CGROUP: '0' })).toEqual({
      python: '/opt/py/bin/python3',
      jobCgroup: false,
    });
    expect(runnerSettingsFromEnv({ KFORGE_JOB_CGROUP: '1' }).jobCgroup).toBe(true);
  });

  it('jobCgroup false: no cgroup, and the report says why', () => {
    expect(JobCgroup.create({ memoryBytes: 256 << 20, pids: 64, cpus: 1 }, false)).toBeNull();
    expect(cgroupSupport(false).note).toBe(
      'no job cgroup (KFORGE_JOB_CGROUP=0): process-group and pid-namespace kills only',
    );
    if (sandboxAvailable()) expect(sandboxName(false)).toMatch(/KFORGE_JOB_CGROUP=0/);
    else expect(sandboxName(false)).toBe(sandboxName());
  });
});
