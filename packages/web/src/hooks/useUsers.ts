// Every user (GET /api/v1/users, superusers): the admin page's owner filter.
import useSWR from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export function useUsers(enabled = true) {
  return useSWR(enabled ? keys.users : null, () => api().admin.users({ limit: 1000 }), { revalidateOnFocus: false });
}
