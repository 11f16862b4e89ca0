// The signed-in user (GET users/me), or null when there is no token.
import useSWR from 'swr';
import { api, getToken } from '../lib/client';
import { keys } from './keys';

export function useCurrentUser() {
  return useSWR(keys.me, () => (getToken() ? api().auth.me() : null));
}
