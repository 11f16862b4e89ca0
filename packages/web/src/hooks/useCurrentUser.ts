// The signed-in user (GET users/me), or null when there is no token; and changing their display name.
import type { UpdateMeRequest, User } from '@kernelforge/sdk';
import useSWR, { useSWRConfig } from 'swr';
import { api, getToken } from '../lib/client';
import { keys, sameList } from './keys';

export function useCurrentUser() {
  return useSWR(keys.me, () => (getToken() ? api().auth.me() : null));
}

/** Save the caller's own settings (display name, result mail); the leaderboards, which show the name, ask again. */
export function useUpdateMe(): (body: UpdateMeRequest) => Promise<User> {
  const { mutate } = useSWRConfig();
  return async (body) => {
    const updated = await api().users.updateMe(body);
    await mutate(keys.me, updated, { revalidate: false });
    void mutate(sameList(keys.leaderboard('', '')));
    void mutate(keys.leaderboards);
    return updated;
  };
}
