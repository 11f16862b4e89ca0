// The waits inside an evaluation, reported as stages of its progress (issue 35 item 3: "103 s waiting for the timing
// lock, 60 s waiting for quiet" with no word on the page): the device's timing lock, which the harness takes around
// its timed phase (one evaluation is timed at a time on a machine), and the wait for quiet before a result timed
// under load is timed again (quiet.ts). The harness says when the lock is held by another (stage `lock` in its
// progress file); the runner adds when that wait began and what holds the lock: the runner whose harness holds it
// leaves a small note beside the lock file (what it times and when its timing should end), which a waiting runner
// reads. Informational only, as all progress: no verdict or figure comes from it, and a missing or stale note only
// makes the page say less.
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { EvaluationProgress, EvaluationWait } from '@kernelforge/sdk';
import { TIMING_LOCK_WAIT_MS, timingLockPath } from '../sandbox/timing-lock.js';
import type { ProgressListener } from './progress.js';
import { quietThreshold } from './quiet.js';

/** The note a runner leaves beside a device's lock file while its harness times under the lock. */
export interface LockHolder {
  /** The runner's process (a note of a process gone is stale). */
  pid: number;
  /** This evaluation's own mark: only its writer removes the note. */
  token: string;
  /** What holds the lock, in the page's words: 'a ranked evaluation, timing case 2 of 5'. */
  what: string;
  /** When its timing should end at the latest (ISO): its timing budget for the cases left. */
  until: string;
}

/** How often a waiting runner reads the holder's note again (a new holder, a new case). */
const HOLDER_POLL_MS = 1000;
/** A note this long past its `until` is stale whatever its process (a runner whose clock or estimate was off). */
const STALE_AFTER_MS = TIMING_LOCK_WAIT_MS;

export function holderPath(deviceId: string): string {
  return `${timingLockPath(deviceId)}.holder.json`;
}

/** Writes the note whole (a temporary file renamed over it); a note that cannot be written is left out. */
export function writeHolder(deviceId: string, holder: LockHolder): void {
  const path = holderPath(deviceId);
  const tmp = `${path}.${holder.token}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(holder), { mode: 0o644 });
    renameSync(tmp, path);
  } catch {
    rmSync(tmp, { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // Another user's process: there, but not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The device's holder note, or null when there is none, it is not one, or it is stale. */
export function readHolder(deviceId: string, now = Date.now()): LockHolder | null {
  try {
    const raw = readFileSync(holderPath(deviceId), 'utf8');
    if (raw.length > 2000) return null;
    const h = JSON.parse(raw) as Partial<LockHolder>;
    if (typeof h.pid !== 'number' || typeof h.token !== 'string' || typeof h.what !== 'string') return null;
    const until = typeof h.until === 'string' ? Date.parse(h.until) : Number.NaN;
    if (!Number.isFinite(until) || now - until > STALE_AFTER_MS || !alive(h.pid)) return null;
    return { pid: h.pid, token: h.token, what: h.what.slice(0, 200), until: new Date(until).toISOString() };
  } catch {
    return null;
  }
}

/** Removes the note when it is still `token`'s (a later holder's is left alone). */
export function clearHolder(deviceId: string, token: string): void {
  try {
    const h = JSON.parse(readFileSync(holderPath(deviceId), 'utf8')) as Partial<LockHolder>;
    if (h.token === token) rmSync(holderPath(deviceId), { force: true });
  } catch {
    /* none, or not one */
  }
}

export interface WaitReportOptions {
  deviceId: string;
  /** A ranked evaluation (what another waiter is told holds the lock). */
  ranked: boolean;
  /** The timing budget of a whole timed phase (ms): the holder's estimate. */
  timingMs: number;
  /** The clock (tests). */
  now?: () => number;
}

/**
 * Passes an evaluation's progress on, with its waits named: the harness's `lock` stage gets when the wait began,
 * the longest it lasts and what holds the lock (re-read every second); the runner's wait for quiet (`quiet`) is
 * reported by `quietWait`. While its own harness times (stage `timing`), it leaves the holder's note for others.
 */
export class WaitReports {
  private readonly token = randomBytes(8).toString('hex');
  private readonly now: () => number;
  private lockSince: number | null = null;
  private lockBase: EvaluationProgress | null = null;
  private lockKey = '';
  private poll: NodeJS.Timeout | null = null;
  private holding = false;
  private holdingCase = -1;

  constructor(
    private readonly send: ProgressListener,
    private readonly opts: WaitReportOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  /** The listener the harness's progress goes through. */
  readonly listener: ProgressListener = (p) => {
    if (p.stage === 'lock') {
      this.release();
      if (this.lockSince === null) this.lockSince = this.now();
      this.lockBase = p;
      this.lockKey = '';
      this.reportLock();
      if (!this.poll) {
        this.poll = setInterval(() => this.reportLock(), HOLDER_POLL_MS);
        this.poll.unref();
      }
      return;
    }
    this.endLockWait();
    if (p.stage === 'timing') this.hold(p);
    else this.release();
    this.send(p);
  };

  private reportLock(): void {
    const base = this.lockBase;
    if (!base || this.lockSince === null) return;
    const holder = readHolder(this.opts.deviceId, this.now());
    const wait: EvaluationWait = {
      since: new Date(this.lockSince).toISOString(),
      max_seconds: TIMING_LOCK_WAIT_MS / 1000,
      ...(holder && holder.token !== this.token ? { holder: holder.what, holder_until: holder.until } : {}),
    };
    const key = JSON.stringify(wait);
    if (key === this.lockKey) return;
    this.lockKey = key;
    this.send({ ...base, wait });
  }

  private endLockWait(): void {
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    this.lockSince = null;
    this.lockBase = null;
  }

  /** Its harness times now (it holds the lock, or timed without one): the note says which case, and until when. */
  private hold(p: EvaluationProgress): void {
    if (this.holding && p.case_index === this.holdingCase) return;
    this.holding = true;
    this.holdingCase = p.case_index;
    const cases = Math.max(1, p.case_count);
    const left = Math.max(1, cases - Math.max(1, p.case_index) + 1);
    writeHolder(this.opts.deviceId, {
      pid: process.pid,
      token: this.token,
      what: `held by ${this.opts.ranked ? 'a ranked' : 'an'} evaluation, timing case ${p.case_index} of ${p.case_count}`,
      until: new Date(this.now() + (this.opts.timingMs / cases) * left + 1000).toISOString(),
    });
  }

  /** Its harness no longer times (its run ended, or it checks again): the note goes. */
  release(): void {
    if (!this.holding) return;
    this.holding = false;
    this.holdingCase = -1;
    clearHolder(this.opts.deviceId, this.token);
  }

  /**
   * The wait for quiet before timing again (quiet.ts's waitForQuiet): reported at once, with the busy cores the
   * first timing saw, then with each one-second window's; returns the window callback.
   */
  quietWait(maxMs: number, firstBusyCores: number | undefined): (busyCores: number) => void {
    this.release();
    this.endLockWait();
    const cores = availableParallelism();
    const since = new Date(this.now()).toISOString();
    const report = (busy: number | undefined) =>
      this.send({
        stage: 'quiet',
        case_index: 0,
        case_count: 0,
        samples: 0,
        wait: {
          since,
          max_seconds: maxMs / 1000,
          cores,
          quiet_below: Math.round(quietThreshold(cores) * 100) / 100,
          ...(busy !== undefined && Number.isFinite(busy)
            ? { busy_cores: Math.round(Math.max(0, busy) * 10) / 10 }
            : {}),
        },
      });
    report(firstBusyCores);
    return (busy) => report(busy);
  }

  /** The evaluation is over: no timer left, no note left. */
  stop(): void {
    this.endLockWait();
    this.release();
  }
}
