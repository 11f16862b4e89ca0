// The problem catalogue (GET /api/v1/problems) and one problem.
import useSWR from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export function useProblems() {
  return useSWR(keys.problems, () => api().problems.list(), { revalidateOnFocus: false });
}

export function useProblem(name: string | undefined) {
  return useSWR(name ? keys.problem(name) : null, () => api().problems.get(name ?? ''), { revalidateOnFocus: false });
}
