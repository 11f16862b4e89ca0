// The signed-in user (GET users/me), or null when there is no token; and changing their display name.
import type { User } from '@kernelforge/sdk';
import useSWR, { useSWRConfig } from 'swr';
import { api, getToken } from '../lib/client';
import { keys, sameList } from './keys';

export function useCurrentUser() {
  return useSWR(keys.me, () => (getToken() ? api().auth.me() : null));
}

/** Save the caller's display name; the leaderboards, which show it, ask again. */
export function useUpdateMe(): (body: { display_name: string | null }) => Promise<User> {
  const { mutate } = useSWRConfig();
  return async (body) => {
    const updated = await api().users.updateMe(body);
    await mutate(keys.me, updated, { revalidate: false });
    void mutate(sameList(keys.leaderboard('', '')));
    void mutate(keys.leaderboards);
    return updated;
  };
}
