// Site settings (GET /api/v1/settings): analytics keys, Google client id, auth server, agents.
import useSWR from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export function useSettings() {
  return useSWR(keys.settings, () => api().settings.get(), { revalidateOnFocus: false });
}
