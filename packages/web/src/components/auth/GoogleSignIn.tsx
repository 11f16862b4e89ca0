// "Sign in with Google" through Google Identity Services, shown only when the settings give a client id.
import { authErrorMessage } from '../../lib/authErrors';
import { useEffect, useRef, useState } from 'react';
import { useAuthActions } from '../../hooks/useAuthActions';
import { api } from '../../lib/client';
import { FormMessage } from '../FormMessage';

interface GoogleIdentity {
  accounts: {
    id: {
      initialize(options: { client_id: string; callback: (response: { credential: string }) => void }): void;
      renderButton(element: HTMLElement, options: Record<string, unknown>): void;
    };
  };
}

const SCRIPT_URL = 'https://accounts.google.com/gsi/client';
let scriptPromise: Promise<GoogleIdentity> | undefined;

function loadGoogle(): Promise<GoogleIdentity> {
  scriptPromise ??= new Promise<GoogleIdentity>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT_URL;
    script.async = true;
    script.onload = () => {
      const google = (window as unknown as { google?: GoogleIdentity }).google;
      if (google) resolve(google);
      else reject(new Error('Google Identity Services did not load'));
    };
    script.onerror = () => {
      scriptPromise = undefined;
      reject(new Error('Google Identity Services did not load'));
    };
    document.head.append(script);
  });
  return scriptPromise;
}

export function GoogleSignIn({
  clientId,
  redirect,
  theme,
}: {
  clientId: string;
  redirect: string | undefined;
  theme: 'light' | 'dark';
}) {
  const container = useRef<HTMLDivElement>(null);
  const { completeLogin } = useAuthActions();
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    loadGoogle()
      .then((google) => {
        if (cancelled || !container.current) return;
        google.accounts.id.initialize({
          client_id: clientId,
          callback: ({ credential }) => {
            api()
              .auth.loginWithGoogle({ id_token: credential })
              .then(() => completeLogin({ redirect }))
              .catch((err: unknown) => setError(authErrorMessage(err, 'Login with Google failed')));
          },
        });
        google.accounts.id.renderButton(container.current, {
          theme: theme === 'dark' ? 'filled_black' : 'outline',
          size: 'large',
          width: 320,
          text: 'signin_with',
        });
      })
      .catch(() => !cancelled && setError('Login with Google failed'));
    return () => {
      cancelled = true;
    };
  }, [clientId, redirect, theme, completeLogin]);

  return (
    <div className="space-y-2">
      <div ref={container} data-testid="google-signin" className="flex min-h-10 justify-center" />
      <FormMessage error={error} />
    </div>
  );
}
