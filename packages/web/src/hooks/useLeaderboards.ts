// Leaderboards: every problem with its top 3, and one problem's top 100 (spec sections 7 and 9).
import { ALL_LEADERBOARDS_LIMIT, LEADERBOARD_PAGE_LIMIT } from '@kernelforge/sdk';
import useSWR from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export function useLeaderboards() {
  return useSWR(keys.leaderboards, () => api().leaderboards.list({ limit: ALL_LEADERBOARDS_LIMIT }));
}

export function useLeaderboard(problemName: string, device = '') {
  return useSWR(
    problemName ? keys.leaderboard(problemName, device) : null,
    () => api().leaderboards.get(problemName, { limit: LEADERBOARD_PAGE_LIMIT, ...(device ? { device } : {}) }),
    { keepPreviousData: true },
  );
}
