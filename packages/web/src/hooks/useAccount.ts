// The signed-in user's own account (issue 35 item 11): set or change the password, change the email address (a link
// mailed to the new one), delete the account. Each keeps the current-user query in step.
import type { ChangeEmailRequest, DeleteMeRequest, SetPasswordRequest, User } from '@kernelforge/sdk';
import { useSWRConfig } from 'swr';
import { api } from '../lib/client';
import { keys } from './keys';

export function useAccount() {
  const { mutate } = useSWRConfig();
  return {
    async setPassword(body: SetPasswordRequest): Promise<string> {
      const { message } = await api().users.setPassword(body);
      await mutate(keys.me);
      return message;
    },
    async changeEmail(body: ChangeEmailRequest): Promise<string> {
      return (await api().users.changeEmail(body)).message;
    },
    async confirmEmail(token: string): Promise<User> {
      const user = await api().users.confirmEmail(token);
      await mutate(keys.me, user, { revalidate: false });
      return user;
    },
    async deleteMe(body: DeleteMeRequest): Promise<void> {
      await api().users.deleteMe(body);
    },
  };
}
