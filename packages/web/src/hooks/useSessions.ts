// The caller's sessions, 50 a page (GET /api/v1/agent-session); `deleted`: only the deleted ones, to restore; and
// starting a session or restoring one.
import { type AgentSession, type CreateSessionRequest, PAGE_SIZE } from '@kernelforge/sdk';
import useSWR, { useSWRConfig } from 'swr';
import { api } from '../lib/client';
import { keys, sameList } from './keys';

export function useSessions(offset = 0, deleted = false) {
  return useSWR(
    keys.sessions(offset, deleted),
    async () => await api().sessions.list({ offset, limit: PAGE_SIZE, ...(deleted ? { deleted_only: true } : {}) }),
  );
}

/** How many deleted sessions the caller has (one row asked for; the list's count says the rest). */
export function useDeletedSessionCount(): number | undefined {
  const { data } = useSWR(
    keys.deletedSessionCount,
    async () => await api().sessions.list({ limit: 1, deleted_only: true }),
  );
  return data?.count;
}

/** After a delete or restore: every cached page of the sessions lists (and the deleted count) asks again. */
export function useRefreshSessionLists(): () => Promise<unknown> {
  const { mutate } = useSWRConfig();
  return () => mutate(sameList(keys.sessions(0)));
}

/** Start a session (written into its cache entry, so its page opens at once); restore a deleted one. */
export function useSessionListMutations() {
  const { mutate } = useSWRConfig();
  const refreshLists = useRefreshSessionLists();
  return {
    create: async (body: CreateSessionRequest): Promise<AgentSession> => {
      const session = await api().sessions.create(body);
      await mutate(keys.session(session.id), session, { revalidate: false });
      return session;
    },
    restore: async (id: string): Promise<void> => {
      await api().sessions.restore(id);
      await refreshLists();
    },
  };
}
