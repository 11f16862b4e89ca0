// The caller's API tokens (GET /api/v1/tokens).
import useSWR from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export function useTokens() {
  return useSWR(keys.tokens, () => api().tokens.list());
}
