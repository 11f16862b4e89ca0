// Every user's sessions for superusers (GET /api/v1/agent-session/all), 50 a page, filtered.
import { PAGE_SIZE } from '@kernelforge/sdk';
import useSWR from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export function useAllSessions(filters: { offset: number; ownerId: string; problemName: string }, enabled = true) {
  const { offset, ownerId, problemName } = filters;
  return useSWR(
    enabled ? keys.allSessions(offset, ownerId, problemName) : null,
    async () =>
      await api().sessions.listAll({
        offset,
        limit: PAGE_SIZE,
        ...(ownerId ? { owner_id: ownerId } : {}),
        ...(problemName ? { problem_name: problemName } : {}),
      }),
    { keepPreviousData: true },
  );
}
