// The problem catalogue (GET /api/v1/problems) and one problem.
import useSWR from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

/** `enabled` false: no request (the catalogue is still read from the cache by whoever asks for it). */
export function useProblems(enabled = true) {
  return useSWR(enabled ? keys.problems : null, () => api().problems.list(), { revalidateOnFocus: false });
}

export function useProblem(name: string | undefined) {
  return useSWR(name ? keys.problem(name) : null, () => api().problems.get(name ?? ''), { revalidateOnFocus: false });
}
