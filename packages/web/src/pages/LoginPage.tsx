// `/`: log in with a password, ask for a magic link, or sign up; a signed-in user goes straight on.
import { useEffect, useId, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { GoogleSignIn } from '../components/auth/GoogleSignIn';
import { MagicLinkForm } from '../components/auth/MagicLinkForm';
import { PasswordLoginForm } from '../components/auth/PasswordLoginForm';
import { SignUpForm } from '../components/auth/SignUpForm';
import { useTheme } from '../components/ThemeProvider';
import { useCurrentUser } from '../hooks/useCurrentUser';
import { usePageTitle } from '../hooks/usePageTitle';
import { useSettings } from '../hooks/useSettings';
import { AFTER_LOGIN_PATH, parseLoginSearch, safeRedirect } from '../lib/authPaths';

type Tab = 'password' | 'magic' | 'signup';

const TABS: { id: Tab; label: string }[] = [
  { id: 'password', label: 'Log in' },
  { id: 'magic', label: 'Email link' },
  { id: 'signup', label: 'Sign up' },
];

export default function LoginPage() {
  usePageTitle('Log in');
  const search = useSearch();
  const { login, redirect } = parseLoginSearch(search);
  const { data: user } = useCurrentUser();
  const { data: settings } = useSettings();
  const { theme } = useTheme();
  const [, navigate] = useLocation();
  const [tab, setTab] = useState<Tab>(login === 0 ? 'signup' : 'password');
  // "Forgot your password?" opens the email-link form, which says how to set a new one.
  const [forgot, setForgot] = useState(false);
  const baseId = useId();

  useEffect(() => {
    if (user) navigate(safeRedirect(redirect) ?? AFTER_LOGIN_PATH, { replace: true });
  }, [user, redirect, navigate]);

  const pages = settings?.page_urls;
  return (
    <div className="grid items-center gap-10 pt-8 lg:grid-cols-2 lg:pt-16">
      <section>
        <h1 className="text-4xl font-bold tracking-tight text-slate-900 dark:text-white">
          Faster kernels, <span className="text-indigo-600 dark:text-indigo-400">measured honestly</span>.
        </h1>
        <p className="mt-4 max-w-prose text-lg text-slate-600 dark:text-slate-300">
          Let an agent write and tune kernels for a problem, watch every attempt compile, pass its checks and get timed
          against the baseline, then rank your best on the leaderboard.
        </p>
        <ul className="mt-6 space-y-2 text-slate-700 dark:text-slate-300">
          <li>• Attempts evaluated for correctness and speed on real devices</li>
          <li>• Live progress of each agent session</li>
          <li>• Leaderboards per problem and device</li>
        </ul>
      </section>
      <section
        aria-label="Sign in"
        className="mx-auto w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-lg dark:border-slate-800 dark:bg-slate-900"
      >
        <div
          role="tablist"
          aria-label="How to sign in"
          className="mb-6 grid grid-cols-3 gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800"
        >
          {TABS.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              id={`${baseId}-${t.id}`}
              aria-selected={tab === t.id}
              aria-controls={`${baseId}-panel`}
              onClick={() => {
                setTab(t.id);
                setForgot(false);
              }}
              className={`rounded-md px-2 py-1.5 text-sm font-medium ${
                tab === t.id
                  ? 'bg-white text-slate-900 shadow dark:bg-slate-950 dark:text-white'
                  : 'text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white'
              }`}
            >
              {t.label}
            </button>
          ))}
        </div>
        <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-${tab}`}>
          {tab === 'password' ? (
            <PasswordLoginForm
              redirect={redirect}
              onForgot={() => {
                setTab('magic');
                setForgot(true);
              }}
            />
          ) : null}
          {tab === 'magic' ? <MagicLinkForm forgot={forgot} /> : null}
          {tab === 'signup' ? <SignUpForm /> : null}
        </div>
        {settings?.google_client_id ? (
          <div className="mt-6 border-t border-slate-200 pt-6 dark:border-slate-800">
            <GoogleSignIn clientId={settings.google_client_id} redirect={redirect} theme={theme} />
          </div>
        ) : null}
        {pages && (pages.terms_of_service || pages.privacy_policy || pages.contact_us) ? (
          <p className="mt-6 flex flex-wrap gap-4 text-xs text-slate-500 dark:text-slate-400">
            {pages.terms_of_service ? (
              <a className="underline" href={pages.terms_of_service}>
                Terms of service
              </a>
            ) : null}
            {pages.privacy_policy ? (
              <a className="underline" href={pages.privacy_policy}>
                Privacy policy
              </a>
            ) : null}
            {pages.contact_us ? (
              <a className="underline" href={pages.contact_us}>
                Contact us
              </a>
            ) : null}
          </p>
        ) : null}
      </section>
    </div>
  );
}
