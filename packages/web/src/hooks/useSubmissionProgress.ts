// A pending submission's horizon (GET /api/v1/submission/{id}/progress): its place in the queue, or what its runner
// reports now; polled once a second while it is pending, never after.
import useSWR from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export function useSubmissionProgress(id: string, pending: boolean) {
  return useSWR(
    pending ? keys.submissionProgress(id) : null,
    async () => ({ ...(await api().submissions.progress(id)), fetched_at: Date.now() }),
    { refreshInterval: 1000, dedupingInterval: 500, revalidateOnFocus: false, keepPreviousData: true },
  );
}
