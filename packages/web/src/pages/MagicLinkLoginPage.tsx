// `/magic-link-login?token=`: log in with the link's token; a sign-up event when the account is new.
import { authErrorMessage } from '../lib/authErrors';
import { useCallback } from 'react';
import { TokenLanding } from '../components/auth/TokenLanding';
import { useAuthActions } from '../hooks/useAuthActions';
import { api } from '../lib/client';

export default function MagicLinkLoginPage() {
  const { completeLogin } = useAuthActions();
  const run = useCallback(
    async (token: string) => {
      try {
        await api().auth.loginWithMagicLink({ token });
        await completeLogin({ signUp: 'magic_link' });
      } catch (err) {
        throw new Error(authErrorMessage(err, 'Login failed'));
      }
    },
    [completeLogin],
  );
  return <TokenLanding title="Signing you in" busyLabel="Signing you in…" run={run} />;
}
