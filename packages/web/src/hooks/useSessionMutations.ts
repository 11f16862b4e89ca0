// Session and instruction actions (rename, stop, delete, restore, star), each written back into the cache.
import type { AgentSession, UserInstruction } from '@kernelforge/sdk';
import { useMemo } from 'react';
import { useSWRConfig } from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export function useSessionMutations(sessionId: string) {
  const { mutate } = useSWRConfig();
  return useMemo(() => {
    const key = keys.session(sessionId);
    const put = (session: AgentSession) => mutate(key, session, { revalidate: false });
    const patch = (change: (s: AgentSession) => AgentSession) =>
      mutate<AgentSession>(key, (s) => (s ? change(s) : s), { revalidate: false });
    const putInstruction = (instruction: UserInstruction) =>
      patch((s) => ({
        ...s,
        user_instructions: s.user_instructions.map((i) => (i.id === instruction.id ? instruction : i)),
      }));
    const refresh = () => mutate(key);

    return {
      rename: async (label: string) => put(await api().sessions.update(sessionId, { label, name: label })),
      stop: async () => put(await api().sessions.stop(sessionId)),
      remove: async () => {
        await api().sessions.delete(sessionId);
        await patch((s) => ({ ...s, deleted_at: new Date().toISOString() }));
        void refresh();
      },
      restore: async () => put(await api().sessions.restore(sessionId)),
      instruct: async (instruction: string, maxAttempts: number) => {
        const created = await api().sessions.createAttempts(sessionId, { instruction, max_attempts: maxAttempts });
        await patch((s) => ({
          ...s,
          user_instructions: [
            ...s.user_instructions.filter((i) => i.id !== created.instruction.id),
            created.instruction,
          ],
          generation_attempts: [
            ...s.generation_attempts.filter((a) => !created.generation_attempts.some((c) => c.id === a.id)),
            ...created.generation_attempts,
          ].sort((a, b) => a.attempt_number - b.attempt_number),
        }));
      },
      renameInstruction: async (id: string, name: string) =>
        putInstruction(await api().instructions.update(id, { name })),
      star: async (id: string, starred: boolean) =>
        putInstruction(await (starred ? api().instructions.star(id) : api().instructions.unstar(id))),
      stopInstruction: async (id: string) => putInstruction(await api().instructions.stop(id)),
      deleteInstruction: async (id: string) => {
        await api().instructions.delete(id);
        await patch((s) => ({
          ...s,
          user_instructions: s.user_instructions.map((i) =>
            i.id === id ? { ...i, deleted_at: new Date().toISOString() } : i,
          ),
        }));
        void refresh();
      },
      restoreInstruction: async (id: string) => putInstruction(await api().instructions.restore(id)),
    };
  }, [sessionId, mutate]);
}
