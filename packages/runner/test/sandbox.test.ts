// A job ends when its processes end, and every process of a job ends with it (issue 10).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cgroupSupport, JobCgroup } from '../src/sandbox/cgroup.js';
import { SANDBOX_USER, sandboxArgv, sandboxAvailable } from '../src/sandbox/bwrap.js';
import { jobUid, runCommand } from '../src/sandbox/spawn.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

// A command that leaves a process behind in a session of its own, holding the command's output pipe.
const leaveOrphan = ['/bin/sh', '-c', 'setsid sleep 300 & echo $!'];

describe('runCommand', () => {
  it('returns when the command exits, even while something it left behind holds its output pipe', async () => {
    const started = Date.now();
    const r = await runCommand(leaveOrphan, { cwd: '/tmp', timeoutMs: 60_000 });
    expect(r.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    const orphan = Number(r.stdout.trim());
    expect(orphan).toBeGreaterThan(0);
    process.kill(orphan, 'SIGKILL');
  }, 30_000);
});

describe.skipIf(!sandboxAvailable())('a sandboxed process', () => {
  // On an H200 with PyTorch 2.11 every pytorch problem after the first failed to load: torch._dynamo's import calls
  // getpass.getuser(), and a sandbox has no /etc/passwd entry for its uid (KeyError: getpwuid(): uid not found).
  it('has a user name for getpass.getuser() although no /etc/passwd entry has its uid', async () => {
    const uid = jobUid();
    const script = [
      'import getpass, os, pwd',
      'try:\n    pwd.getpwuid(os.getuid()); print("passwd entry")\nexcept KeyError:\n    print("no passwd entry")',
      'print("user=" + getpass.getuser())',
    ].join('\n');
    const r = await runCommand(
      sandboxArgv(
        {
          workDir: '/tmp',
          writable: false,
          limits: { cpuSeconds: 30, processes: 64, fileSize: 1 << 20, openFiles: 64 },
        },
        ['/usr/bin/python3', '-I', '-c', script],
      ),
      { cwd: '/tmp', timeoutMs: 30_000, dropRoot: true, ...(uid !== undefined ? { uid } : {}) },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('no passwd entry');
    expect(r.stdout).toContain(`user=${SANDBOX_USER}`);
  }, 60_000);
});

describe('a job cgroup', () => {
  it('is available to a root runner', () => {
    if (process.getuid?.() !== 0) return;
    expect(cgroupSupport().hierarchies.length, cgroupSupport().note).toBeGreaterThan(0);
  });

  it('kills everything the job started, whatever session or group it moved to', async () => {
    const cg = JobCgroup.create({ memoryBytes: 256 << 20, pids: 64, cpus: 1 });
    if (process.getuid?.() !== 0) {
      expect(cg).toBeNull();
      return;
    }
    expect(cg).not.toBeNull();
    const r = await runCommand(leaveOrphan, { cwd: '/tmp', timeoutMs: 60_000, cgroup: cg, dropRoot: true });
    expect(r.code, r.stderr).toBe(0);
    const orphan = Number(r.stdout.trim());
    await sleep(100);
    expect(alive(orphan)).toBe(false);
    expect(cg?.empty()).toBe(true);
    await cg?.remove();
  }, 30_000);

  it('runs the command under the job uid after joining (root runner)', async () => {
    if (process.getuid?.() !== 0) return;
    const cg = JobCgroup.create({ memoryBytes: 256 << 20, pids: 64, cpus: 1 });
    const r = await runCommand(['/bin/sh', '-c', 'id -u; cat /proc/self/cgroup'], {
      cwd: '/tmp',
      timeoutMs: 30_000,
      cgroup: cg,
      dropRoot: true,
      uid: 1_234_567_890,
    });
    expect(r.stdout.split('\n')[0]).toBe('1234567890');
    expect(r.stdout).toMatch(/kf-\d+-/);
    await cg?.remove();
  }, 30_000);
});
