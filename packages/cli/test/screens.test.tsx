// The Ink screens of `sessions watch` and `submit --wait`, rendered with scripted events.
import { vi } from 'vitest';

// Ink decides once, when it is first imported, whether it runs under CI (is-in-ci reads CI and
// CONTINUOUS_INTEGRATION). Under CI it keeps every frame back until unmount, so these screens would
// render nothing to assert on. The CLI itself never mounts Ink under CI (it prints plain lines), so the
// screens are tested as a terminal sees them, whatever the machine running the suite has set.
const ciEnv = vi.hoisted(() => {
  const saved = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
  process.env.CI = 'false';
  process.env.CONTINUOUS_INTEGRATION = 'false';
  return saved;
});
import { render } from 'ink-testing-library';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { SessionWatch, type WatchResult } from '../src/ui/SessionWatch.js';
import { SubmissionProgress, type SubmissionResult } from '../src/ui/SubmissionProgress.js';
import { initialWatchState, type WatchEvent } from '../src/watch/session-state.js';
import type { FollowedSubmission } from '../src/watch/submission.js';
import {
  attempt,
  Channel,
  evaluation,
  eventually,
  queuedSubmission,
  SESSION_ID,
  session,
  submission,
} from './helpers/fixtures.js';
import type { SubmissionDetail } from '@kernelforge/sdk';

afterAll(() => {
  for (const [key, value] of Object.entries(ciEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

describe('sessions watch screen', () => {
  test("shows attempts as they run, the agent's streamed text, and ends when the session goes idle", async () => {
    const events = new Channel<WatchEvent>();
    const onExit = vi.fn<(result: WatchResult) => void>();
    const first = attempt(1, { status: 'completed', evaluation_state: evaluation('accepted', 12.5, 1.1) });
    const view = render(
      <SessionWatch
        initial={initialWatchState(session({ generation_attempts: [first] }))}
        events={events}
        onExit={onExit}
      />,
    );
    cleanup = view.unmount;
    expect(view.lastFrame()).toContain('relu session');
    expect(view.lastFrame()).toMatch(/1\*\s+completed\s+accepted\s+12\.5 ms\s+1\.10x/);
    expect(view.lastFrame()).toContain('q to leave');

    const second = attempt(2);
    events.push({ type: 'attempt.created', session_id: SESSION_ID, attempt: second });
    events.push({ type: 'attempt.updated', session_id: SESSION_ID, attempt: { ...second, status: 'generating' } });
    events.push({ type: 'attempt.delta', session_id: SESSION_ID, attempt_id: second.id, text: 'Trying a wider\n' });
    events.push({ type: 'attempt.delta', session_id: SESSION_ID, attempt_id: second.id, text: 'vector width' });
    await eventually(() => {
      expect(view.lastFrame()).toMatch(/2\s+generating/);
      expect(view.lastFrame()).toContain('agent · attempt #2');
      expect(view.lastFrame()).toContain('vector width');
    });

    events.push({
      type: 'attempt.updated',
      session_id: SESSION_ID,
      attempt: { ...second, status: 'completed', evaluation_state: evaluation('accepted', 6.25, 2.2) },
    });
    await eventually(() => {
      expect(view.lastFrame()).toMatch(/2\*\s+completed\s+accepted\s+6\.25 ms\s+2\.20x/);
      expect(view.lastFrame()).not.toContain('vector width');
    });
    expect(onExit).not.toHaveBeenCalled();

    events.push({ type: 'session.status', session_id: SESSION_ID, status: 'idle' });
    await eventually(() => expect(onExit).toHaveBeenCalledTimes(1));
    const result = onExit.mock.calls[0]?.[0];
    expect(result?.reason).toBe('done');
    expect(result?.state.attempts.map((a) => a.status)).toEqual(['completed', 'completed']);
    expect(view.lastFrame()).toContain('session idle');
  });

  test('says how many evaluations are ahead while an attempt waits, then the estimate once it runs', async () => {
    const events = new Channel<WatchEvent>();
    const waiting = attempt(3, { status: 'evaluating' });
    const view = render(
      <SessionWatch initial={initialWatchState(session({ generation_attempts: [waiting] }))} events={events} />,
    );
    cleanup = view.unmount;
    const report = {
      attempt_id: waiting.id,
      phase: 'evaluating' as const,
      queue: { job: 'evaluate' as const, ahead: 2, running: 1 },
      phase_elapsed_seconds: null,
      estimate_seconds: null,
      typical_seconds: 40,
      typical_from: 'session' as const,
    };
    events.push({ type: 'progress', progress: report });
    await eventually(() => expect(view.lastFrame()).toContain('#3 waiting: 2 evaluations ahead, 1 running'));
    events.push({
      type: 'progress',
      progress: { ...report, queue: null, phase_elapsed_seconds: 15, estimate_seconds: 25 },
    });
    await eventually(() =>
      expect(view.lastFrame()).toContain('#3 evaluating: usually about 40 s; about 25 s left (estimate)'),
    );
    events.push({
      type: 'progress',
      progress: { ...report, queue: null, phase_elapsed_seconds: 67, estimate_seconds: 0 },
    });
    await eventually(() => expect(view.lastFrame()).toContain('usually about 40 s; taking longer than usual'));
    // Which part of the evaluation runs, as the runner last reported it: the same line as the web's.
    events.push({
      type: 'progress',
      progress: {
        ...report,
        queue: null,
        phase_elapsed_seconds: 67,
        estimate_seconds: 0,
        evaluation: { stage: 'timing', case_index: 1, case_count: 2, samples: 37 },
      },
    });
    await eventually(() => expect(view.lastFrame()).toContain('#3 Timing case 1 of 2 · 37 samples'));
    events.push({
      type: 'progress',
      progress: {
        ...report,
        queue: null,
        phase_elapsed_seconds: 67,
        estimate_seconds: 0,
        evaluation: { stage: 'correctness', case_index: 12, case_count: 30, samples: 0 },
      },
    });
    await eventually(() => expect(view.lastFrame()).toContain('#3 Checking case 12 of 30'));
    // The runner's waits inside the evaluation, with their cause and estimate (issue 35 item 3).
    const since = new Date(Date.now() - 30_000).toISOString();
    events.push({
      type: 'progress',
      progress: {
        ...report,
        queue: null,
        phase_elapsed_seconds: 67,
        estimate_seconds: 0,
        evaluation: {
          stage: 'lock',
          case_index: 0,
          case_count: 2,
          samples: 0,
          wait: { since, max_seconds: 120, holder: 'held by a ranked evaluation, timing case 2 of 5' },
        },
      },
    });
    const flat = () => (view.lastFrame() ?? '').replace(/\s+/g, ' ');
    await eventually(() =>
      expect(flat()).toMatch(
        /#3 Waiting for the timing lock \(one evaluation is timed at a time on this machine\): held by a ranked evaluation, timing case 2 of 5 · waiting \d+ s, at most 2 min 00 s, then it is timed anyway/,
      ),
    );
    events.push({
      type: 'progress',
      progress: {
        ...report,
        queue: null,
        phase_elapsed_seconds: 67,
        estimate_seconds: 0,
        evaluation: {
          stage: 'quiet',
          case_index: 0,
          case_count: 0,
          samples: 0,
          wait: { since, max_seconds: 60, busy_cores: 1.6, cores: 2, quiet_below: 0.5 },
        },
      },
    });
    await eventually(() =>
      expect(flat()).toContain(
        '#3 Waiting for the machine to quiet before timing again: other work keeps 1.6 of 2 cores busy (quiet is under 0.5)',
      ),
    );
    // The attempt moves on before the next poll: the stale report is not shown.
    events.push({
      type: 'attempt.updated',
      session_id: SESSION_ID,
      attempt: { ...waiting, status: 'completed', evaluation_state: evaluation('accepted', 6.25, 2.2) },
    });
    await eventually(() => expect(view.lastFrame()).not.toContain('usually about'));
    expect(view.lastFrame()).not.toContain('Checking case');
  });

  test('q leaves the view without touching the session', async () => {
    const events = new Channel<WatchEvent>();
    const onExit = vi.fn<(result: WatchResult) => void>();
    const view = render(
      <SessionWatch
        initial={initialWatchState(session({ generation_attempts: [attempt(1)] }))}
        events={events}
        onExit={onExit}
      />,
    );
    cleanup = view.unmount;
    await eventually(() => expect(view.lastFrame()).toMatch(/1\s+queued/));
    view.stdin.write('q');
    await eventually(() => expect(onExit).toHaveBeenCalledTimes(1));
    expect(onExit.mock.calls[0]?.[0].reason).toBe('left');
    expect(onExit.mock.calls[0]?.[0].state.status).toBe('active');
  });

  test('a failed attempt shows as failed and a stopped session ends the view', async () => {
    const events = new Channel<WatchEvent>();
    const onExit = vi.fn<(result: WatchResult) => void>();
    const view = render(
      <SessionWatch
        initial={initialWatchState(session({ generation_attempts: [attempt(1)] }))}
        events={events}
        onExit={onExit}
      />,
    );
    cleanup = view.unmount;
    events.push({
      type: 'attempt.updated',
      session_id: SESSION_ID,
      attempt: attempt(1, { status: 'failed', error: 'agent error' }),
    });
    events.push({ type: 'session.status', session_id: SESSION_ID, status: 'stopped' });
    await eventually(() => expect(onExit).toHaveBeenCalledTimes(1));
    expect(view.lastFrame()).toMatch(/1\s+failed\s+failed/);
    expect(view.lastFrame()).toContain('session stopped');
  });
});

describe('submit --wait screen', () => {
  test('shows the status while it is evaluated, then the verdict, time, speedup and rank', async () => {
    const updates = new Channel<FollowedSubmission>();
    const onExit = vi.fn<(result: SubmissionResult) => void>();
    const view = render(
      <SubmissionProgress initial={queuedSubmission()} updates={updates} tickMs={0} now={() => 0} onExit={onExit} />,
    );
    cleanup = view.unmount;
    expect(view.lastFrame()).toContain('19_ReLU on cpu-x86_64 · queued · 0s');
    updates.push(submission({ status: 'evaluating' }));
    await eventually(() => expect(view.lastFrame()).toContain('· evaluating ·'));
    // Why it has no verdict yet, as the web's submission page says it: the queue, then the runner's waits.
    const pending = {
      phase: 'queued' as const,
      queue: { job: 'evaluate' as const, ahead: 2, running: 1 },
      phase_elapsed_seconds: null,
      estimate_seconds: null,
      typical_seconds: null,
      evaluation: null,
      notice: null,
    };
    updates.push({ ...submission({ status: 'queued' }), progress: pending });
    await eventually(() =>
      expect(view.lastFrame()).toContain(
        'Waiting for a runner on cpu-x86_64: 2 evaluations ahead of it, 1 running now',
      ),
    );
    updates.push({
      ...submission({ status: 'evaluating' }),
      progress: {
        ...pending,
        phase: 'evaluating',
        queue: null,
        evaluation: {
          stage: 'lock',
          case_index: 0,
          case_count: 2,
          samples: 0,
          wait: {
            since: new Date().toISOString(),
            max_seconds: 120,
            holder: 'held by a ranked evaluation, timing case 2 of 5',
          },
        },
      },
    });
    await eventually(() =>
      expect((view.lastFrame() ?? '').replace(/\s+/g, ' ')).toContain(
        'Waiting for the timing lock (one evaluation is timed at a time on this machine): held by a ranked evaluation, timing case 2 of 5',
      ),
    );
    updates.push(
      submission({
        status: 'completed',
        verdict: 'accepted',
        time_ms: 7.85,
        speedup: 1.25,
        rank: 1,
        evaluation_state: evaluation('accepted', 7.85, 1.25),
      }),
    );
    await eventually(() => expect(onExit).toHaveBeenCalledTimes(1));
    expect(view.lastFrame()).toContain('✓ accepted 19_ReLU on cpu-x86_64 · 7.85 ms · 1.25x · rank #1');
    expect(onExit.mock.calls[0]?.[0].submission.verdict).toBe('accepted');
  });

  test("a kernel that is not accepted shows its verdict and the runner's message", async () => {
    const updates = new Channel<SubmissionDetail>();
    const onExit = vi.fn<(result: SubmissionResult) => void>();
    const view = render(
      <SubmissionProgress initial={queuedSubmission()} updates={updates} tickMs={0} now={() => 0} onExit={onExit} />,
    );
    cleanup = view.unmount;
    updates.push(submission({ status: 'completed', verdict: 'incorrect', evaluation_state: evaluation('incorrect') }));
    await eventually(() => expect(onExit).toHaveBeenCalledTimes(1));
    expect(view.lastFrame()).toContain('✗ incorrect 19_ReLU on cpu-x86_64');
    expect(view.lastFrame()).toContain('incorrect: output y[0] differs');
  });
});
