// Login and logout as the spec orders them (section 4), shared by every sign-in form.
import { isNewUser, type User } from '@kernelforge/sdk';
import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import { useLocation } from 'wouter';
import { captureSignUp, identifyUser, resetAnalytics } from '../lib/analytics';
import { AFTER_LOGIN_PATH, safeRedirect } from '../lib/authPaths';
import { api, clearToken } from '../lib/client';
import { keys } from './keys';

let loggingOut = false;

/** True (once) after a logout: the signed-in guard must not greet it with 'Unauthorized'. */
export function consumeLogout(): boolean {
  const was = loggingOut;
  loggingOut = false;
  return was;
}

export interface CompleteLoginOptions {
  redirect?: string | undefined;
  /** 'registration': always a sign-up; 'magic_link': a sign-up when the account is under 300 s old. */
  signUp?: 'registration' | 'magic_link';
}

export function useAuthActions() {
  const { mutate } = useSWRConfig();
  const [, navigate] = useLocation();

  /** The token is stored already (the sdk does it): load the user, identify, record sign-up, go on. */
  const completeLogin = useCallback(
    async (options: CompleteLoginOptions = {}): Promise<User> => {
      const user = await api().auth.me();
      await mutate(keys.me, user, { revalidate: false });
      identifyUser(user);
      if (options.signUp === 'registration' || (options.signUp === 'magic_link' && isNewUser(user))) {
        captureSignUp(user, options.signUp);
      }
      navigate(safeRedirect(options.redirect) ?? AFTER_LOGIN_PATH, { replace: true });
      return user;
    },
    [mutate, navigate],
  );

  /** Remove the token, forget cached data, refresh the current-user query, reset analytics, go to /. */
  const logout = useCallback(async () => {
    loggingOut = true;
    // The guard consumes the flag when it sees the user go; this clears it if the guard never looks.
    setTimeout(() => {
      loggingOut = false;
    }, 2000);
    clearToken();
    await mutate((key) => key !== keys.me && key !== keys.settings, undefined, { revalidate: false });
    await mutate(keys.me);
    resetAnalytics();
    navigate('/');
  }, [mutate, navigate]);

  return { completeLogin, logout };
}
