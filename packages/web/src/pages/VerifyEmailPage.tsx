// `/verify-email?token=`: verify, register, store the token, record the sign-up, go on.
import { useCallback } from 'react';
import { ResendVerification } from '../components/auth/ResendVerification';
import { TokenLanding } from '../components/auth/TokenLanding';
import { useAuthActions } from '../hooks/useAuthActions';
import { authErrorMessage, lacksAccessToken, UNKNOWN_ERROR } from '../lib/authErrors';
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
        // An answer without `token.access_token` (even without `token` at all) is 'Unknown error' (spec section 5).
        if (lacksAccessToken(err)) throw new Error(UNKNOWN_ERROR);
        throw new Error(authErrorMessage(err, 'Registration failed'));
      }
      if (!accessToken) throw new Error(UNKNOWN_ERROR);
      try {
        await completeLogin({ signUp: 'registration' });
      } catch (err) {
        throw new Error(authErrorMessage(err, 'Registration failed'));
      }
    },
    [completeLogin],
  );
  return (
    <TokenLanding
      title="Verify your email"
      busyLabel="Verifying your email…"
      run={run}
      whenMissing={<ResendVerification />}
    />
  );
}
