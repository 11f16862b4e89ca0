// `/verify-email?token=`: verify, register, store the token, record the sign-up, go on.
import { errorMessage } from '@kernelforge/sdk';
import { useCallback } from 'react';
import { TokenLanding } from '../components/auth/TokenLanding';
import { useAuthActions } from '../hooks/useAuthActions';
import { api } from '../lib/client';

export default function VerifyEmailPage() {
  const { completeLogin } = useAuthActions();
  const run = useCallback(
    async (token: string) => {
      let accessToken: string | undefined;
      try {
        const response = await api().auth.register({ email_verification_token: token });
        accessToken = response.token.access_token;
      } catch (err) {
        throw new Error(errorMessage(err, 'Registration failed'));
      }
      if (!accessToken) throw new Error('Unknown error');
      try {
        await completeLogin({ signUp: 'registration' });
      } catch (err) {
        throw new Error(errorMessage(err, 'Registration failed'));
      }
    },
    [completeLogin],
  );
  return <TokenLanding title="Verify your email" busyLabel="Verifying your email…" run={run} />;
}
