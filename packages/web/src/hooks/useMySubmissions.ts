// The caller's latest submissions (GET /api/v1/submission), refreshed every 2 s while one is still being evaluated;
// and their latest on one problem, to pick one to compare with.
import type { CreateSubmissionRequest, Submission } from '@kernelforge/sdk';
import useSWR, { useSWRConfig } from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export const MY_SUBMISSIONS_LIMIT = 10;
const POLL_MS = 2000;

export function useMySubmissions() {
  return useSWR(keys.mySubmissions, async () => await api().submissions.list({ limit: MY_SUBMISSIONS_LIMIT }), {
    refreshInterval: (page) =>
      page?.data.some((s) => s.status === 'queued' || s.status === 'evaluating') ? POLL_MS : 0,
  });
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

/** "Run tests": a test run of the source (benchmark mode, never ranked); it is not one of "your submissions". */
export function useRunTests(): (body: CreateSubmissionRequest) => Promise<Submission> {
  return async (body) => await api().submissions.test(body);
}
