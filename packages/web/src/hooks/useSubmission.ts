// One submission (GET /api/v1/leaderboard/submission/{id}), refreshed once a second until it has a verdict.
import useSWR from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export const SUBMISSION_POLL_MS = 1000;

export function useSubmission(id: string | undefined) {
  return useSWR(id ? keys.submission(id) : null, () => api().leaderboards.submission(id ?? ''), {
    refreshInterval: (data) =>
      data && (data.status === 'queued' || data.status === 'evaluating') ? SUBMISSION_POLL_MS : 0,
  });
}
