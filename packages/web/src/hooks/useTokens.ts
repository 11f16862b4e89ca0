// The caller's API tokens (GET /api/v1/tokens), and creating and revoking one (the list asks again after each).
import type { CreateApiTokenRequest, CreatedApiToken } from '@kernelforge/sdk';
import useSWR, { useSWRConfig } from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export function useTokens() {
  return useSWR(keys.tokens, () => api().tokens.list());
}

export function useTokenMutations() {
  const { mutate } = useSWRConfig();
  return {
    create: async (body: CreateApiTokenRequest): Promise<CreatedApiToken> => {
      const token = await api().tokens.create(body);
      void mutate(keys.tokens);
      return token;
    },
    revoke: async (id: string): Promise<void> => {
      try {
        await api().tokens.revoke(id);
      } finally {
        void mutate(keys.tokens);
      }
    },
  };
}
