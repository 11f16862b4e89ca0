// Peaks are measured only on a quiet machine (issue 35): never beside an evaluation's timed phase (the device's timing
// lock), and a run beside other work is marked as measured under load (a busy loop this test starts itself). Runs the
// real peaks binary.
import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { measureCpuPeaksWhenQuiet, peaksCommand } from '../src/devices/cpu.js';
import { runPeaksNow, runPeaksWhenQuiet } from '../src/devices/quiet-peaks.js';
import { timingLockPath } from '../src/sandbox/timing-lock.js';
import { workDir } from './helpers.js';

/** A device id of this test's own, so its lock never holds up a real evaluation. */
const DEVICE = `cpu-test-quiet-peaks-${process.pid}`;
const started: ChildProcess[] = [];

afterEach(() => {
  // Each in its own process group: the lock's holder is flock's child too.
  for (const p of started.splice(0)) if (p.pid) process.kill(-p.pid, 'SIGKILL');
});

/** Holds the device's timing lock, as an evaluation's timed phase does, until the test ends. */
async function holdLock(): Promise<void> {
  const holder = spawn('flock', ['-x', timingLockPath(DEVICE), '-c', 'echo locked; exec sleep 60'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  started.push(holder);
  await new Promise<void>((resolve, reject) => {
    holder.once('error', reject);
    holder.stdout?.once('data', () => resolve());
  });
}

/** Busy loops on every core, in processes that are not this one's reaped children while the peaks run. */
function busyEverywhere(): void {
  for (let i = 0; i < availableParallelism(); i++)
    started.push(spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore', detached: true }));
}

describe('peaks measured on a quiet machine', () => {
  it('a run made while an evaluation is timed (its lock held) is never quiet, and a quiet measurement waits instead', async () => {
    await holdLock();
    const cmd = peaksCommand(workDir);
    const beside = runPeaksNow(cmd, timingLockPath(DEVICE), 1);
    expect(beside.locked).toBe(false);
    expect(beside.quiet).toBe(false);
    // The measurement that results are judged against makes no run beside the timed phase at all.
    expect(await runPeaksWhenQuiet(cmd, timingLockPath(DEVICE), { tries: 1, waitMs: 0, lockWaitS: 1 })).toEqual([]);
    expect(await measureCpuPeaksWhenQuiet(DEVICE, { workDir, tries: 1, waitMs: 0, lockWaitS: 1 })).toBeNull();
  }, 60_000);

  it('a run beside other work is measured under load: its figures are kept, marked quiet: false with the load', async () => {
    busyEverywhere();
    await new Promise((r) => setTimeout(r, 300));
    // Retried once after a (short) wait for a quiet second, then given up: the figures kept as a floor, under load.
    const peaks = await measureCpuPeaksWhenQuiet(DEVICE, { workDir, tries: 2, waitMs: 200, lockWaitS: 5 });
    expect(peaks?.measurement).toMatchObject({ quiet: false, tries: 2 });
    expect(peaks?.measurement?.outside_busy_cores).toBeGreaterThan(0.5);
    expect(peaks?.bandwidth_gbps).toBeGreaterThan(0);
  }, 120_000);
});
