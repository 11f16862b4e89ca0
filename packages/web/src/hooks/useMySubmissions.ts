// The caller's latest submissions (GET /api/v1/submission) and, apart, their latest test runs (?purpose=test), each
// refreshed every 2 s while one is still being evaluated; and their latest on one problem, to pick one to compare with.
import type { CreateSubmissionRequest, Submission } from '@kernelforge/sdk';
import useSWR, { useSWRConfig } from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export const MY_SUBMISSIONS_LIMIT = 10;
const POLL_MS = 2000;

const stillRunning = (page: { data: readonly Submission[] } | undefined) =>
  page?.data.some((s) => s.status === 'queued' || s.status === 'evaluating') ? POLL_MS : 0;
// SWR schedules the next poll from a function interval only when its effect runs again, which a new function each
// render makes it do; one module-level function would stop the polling after the first answer.

export function useMySubmissions() {
  return useSWR(keys.mySubmissions, async () => await api().submissions.list({ limit: MY_SUBMISSIONS_LIMIT }), {
    refreshInterval: (page) => stillRunning(page),
  });
}

/** The caller's latest test runs ("Run tests": never ranked), listed apart from their submissions. */
export function useMyTestRuns() {
  return useSWR(
    keys.myTestRuns,
    async () => await api().submissions.list({ purpose: 'test', limit: MY_SUBMISSIONS_LIMIT }),
    { refreshInterval: (page) => stillRunning(page) },
  );
}

/** The caller's latest submissions to one problem (none asked for without a problem). */
export function useMySubmissionsOn(problem: string | undefined) {
  return useSWR(
    problem ? keys.mySubmissionsOn(problem) : null,
    async () => await api().submissions.list({ problem_name: problem ?? '', limit: 50 }),
  );
}

/** Submit a solution; the caller's latest submissions ask again. */
export function useCreateSubmission(): (body: CreateSubmissionRequest) => Promise<Submission> {
  const { mutate } = useSWRConfig();
  return async (body) => {
    const submission = await api().submissions.create(body);
    void mutate(keys.mySubmissions);
    return submission;
  };
}

/** "Run tests": a test run of the source (benchmark mode, never ranked); it is listed with the test runs, not the
    submissions. */
export function useRunTests(): (body: CreateSubmissionRequest) => Promise<Submission> {
  const { mutate } = useSWRConfig();
  return async (body) => {
    const run = await api().submissions.test(body);
    void mutate(keys.myTestRuns);
    return run;
  };
}
