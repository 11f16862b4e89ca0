// Users for superusers (GET /api/v1/users): every one for the admin page's owner filter, a search on the Users page,
// and the changes made there (superuser, active), written back into every cached list of users.
import type { User } from '@kernelforge/sdk';
import useSWR, { useSWRConfig } from 'swr';
import { api } from '../lib/client';
import { keys, sameList } from './keys';

export function useUsers(enabled = true) {
  return useSWR(enabled ? keys.users : null, () => api().admin.users({ limit: 1000 }), { revalidateOnFocus: false });
}

/** The first 100 users matching `q` (emails, names, handles); every user without one. */
export function useUserSearch(q: string) {
  return useSWR(keys.adminUsers(q), () => api().admin.users({ limit: 100, ...(q ? { q } : {}) }));
}

/** Change a user's role or account; every cached list of users asks again. */
export function useUpdateUser(): (user: User, body: { is_superuser?: boolean; is_active?: boolean }) => Promise<User> {
  const { mutate } = useSWRConfig();
  return async (user, body) => {
    const updated = await api().admin.updateUser(user.id, body);
    void mutate((key) => key === keys.users || sameList(keys.adminUsers(''))(key));
    return updated;
  };
}
