// What a runner checks before it registers: a work dir the sandbox can reach, and one trial job through its real
// sandbox (compile and run a tiny known kernel). A runner that cannot evaluate anything must say so and stop, not
// register as healthy and turn every job it claims into a dead letter.
import { lstatSync, mkdirSync, realpathSync, statSync, chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Device, EvaluationJobPayload, EvaluationState } from '@kernelforge/sdk';
import { evaluate } from '../evaluate/evaluate.js';
import type { Catalogue } from '../problems/schema.js';

/** Why this runner will not register: the message names the fix. */
export class PreflightError extends Error {}

const isRoot = () => process.getuid?.() === 0;

/**
 * The work dir's mode: 0700, or 0711 when the runner is root: its sandboxes then run as another user (nobody or a
 * job's own uid), which must pass through (never list) to the job folders and the build cache.
 */
export const workDirMode = (): number => (isRoot() ? 0o711 : 0o700);

/**
 * Creates the work dir (or checks an existing one) and makes its mode `workDirMode()`: a folder (not a link) of this
 * user's. As root, every folder above it must let other users pass through (the sandbox's user reaches its job
 * folder through them, and bwrap binds paths under it): a PreflightError names the folder and the fix otherwise.
 */
export function prepareWorkDir(dir: string): void {
  const mode = workDirMode();
  mkdirSync(dir, { recursive: true, mode });
  const st = lstatSync(dir);
  if (st.isSymbolicLink() || !st.isDirectory())
    throw new PreflightError(
      `the work dir ${dir} must be a folder, not a link or a file: remove it, or pass --work-dir`,
    );
  if (typeof process.getuid === 'function' && st.uid !== process.getuid())
    throw new PreflightError(
      `the work dir ${dir} belongs to another user (uid ${st.uid}): remove it, or pass --work-dir with a folder of yours`,
    );
  if ((st.mode & 0o777) !== mode) chmodSync(dir, mode);
  if (!isRoot()) return;
  let up = dirname(realpathSync(dir));
  for (;;) {
    const m = statSync(up).mode & 0o777;
    if ((m & 0o001) === 0)
      throw new PreflightError(
        `the work dir ${dir} is out of the sandbox's reach: ${up} is ${m.toString(8).padStart(4, '0')}, and a runner started as root runs each sandbox as another user (nobody or a job's own uid), which must pass through every folder above the work dir. Fix: pass --work-dir with a folder under one every user can pass through (e.g. --work-dir /var/lib/kforge-runner), or chmod o+x ${up}`,
      );
    const next = dirname(up);
    if (next === up) break;
    up = next;
  }
}

/** The trial job: a custom problem (y = 2x) and a candidate that solves it, tiny sizes, the quick timing rules. */
export function trialPayload(device: Device): EvaluationJobPayload {
  const kernel = (body: string) =>
    `#include <stdint.h>\nvoid solution(const float* x, float* y, int64_t n) { for (int64_t i = 0; i < n; i++) y[i] = ${body}; }\n`;
  return {
    kind: 'attempt',
    target_id: 'runner-trial',
    mode: 'benchmark',
    problem_name: 'runner trial',
    device: device.id,
    language: 'c',
    source: kernel('x[i] + x[i]'),
    custom_problem: {
      signature: [
        { name: 'x', type: 'f32*', role: 'in', shape: ['n'] },
        { name: 'y', type: 'f32*', role: 'out', shape: ['n'] },
        { name: 'n', type: 'i64', role: 'size' },
      ],
      reference_source: kernel('2 * x[i]'),
      language: 'c',
      cases: { test: [{ name: 't257', sizes: { n: 257 } }], benchmark: [{ name: 'b', sizes: { n: 65_536 } }] },
      cost: { flops: 'n', bytes: '8*n' },
    },
  };
}

export interface TrialOptions {
  workDir: string;
  /** The cpu device the trial runs on (every runner host has one, whatever devices it serves). */
  device: Device;
  problems: Catalogue;
  allowUnsandboxed?: boolean;
  python?: string;
  jobCgroup?: boolean;
  signal?: AbortSignal;
}

/**
 * Runs the trial job through the real sandbox (compile in bwrap, the sandboxed harness and worker, the job's uid
 * and cgroup): resolves with its state when the candidate compiled and every output checked, throws a PreflightError
 * saying what failed (and, for a sandbox that cannot reach the work dir, the fix) otherwise.
 */
export async function runTrialJob(opts: TrialOptions): Promise<EvaluationState> {
  let state: EvaluationState;
  try {
    state = await evaluate(trialPayload(opts.device), {
      problems: opts.problems,
      device: opts.device,
      workDir: opts.workDir,
      timing: 'quick',
      ...(opts.allowUnsandboxed ? { allowUnsandboxed: true } : {}),
      ...(opts.python !== undefined ? { python: opts.python } : {}),
      ...(opts.jobCgroup !== undefined ? { jobCgroup: opts.jobCgroup } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  } catch (e) {
    throw trialFailure(opts.workDir, e instanceof Error ? e.message : String(e));
  }
  const checked = state.correctness?.passed === true;
  if (state.verdict === 'accepted' || (checked && state.verdict === 'implausible')) return state;
  const log = [state.message, state.compile?.log ?? '', state.stderr ?? ''].join('\n');
  throw trialFailure(opts.workDir, `${state.verdict}: ${log.trim().slice(0, 1500)}`);
}

function trialFailure(workDir: string, what: string): PreflightError {
  const reach = /Permission denied|Can't find source path|EACCES/i.test(what)
    ? ` The sandbox's user cannot reach ${join(workDir, 'jobs')}: pass --work-dir with a folder every user can pass through (e.g. /var/lib/kforge-runner), or run the runner as an ordinary user.`
    : '';
  return new PreflightError(
    `the trial job (a tiny known kernel, compiled and run in this runner's sandbox) failed, so this runner would fail every job; not registering.${reach}\n${what}`,
  );
}
