// Product analytics through posthog-js, loaded lazily and only when the settings carry a key.
import type { Settings, User } from '@kernelforge/sdk';

type PostHog = typeof import('posthog-js').default;

/** The event recorded after a sign-up (spec section 4). */
export const SIGN_UP_EVENT = 'user_signed_up';

let client: Promise<PostHog | undefined> = Promise.resolve(undefined);
let configuredKey: string | null = null;

export function isLocalHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}

/** Starts posthog when `posthog_key` is set; without a key nothing is loaded and nothing is sent. */
export function initAnalytics(settings: Pick<Settings, 'posthog_key' | 'posthog_host'>): void {
  const key = settings.posthog_key;
  if (!key || key === configuredKey) return;
  configuredKey = key;
  client = import('posthog-js')
    .then(({ default: posthog }) => {
      posthog.init(key, {
        api_host: settings.posthog_host ?? 'https://us.i.posthog.com',
        disable_session_recording: isLocalHost(location.hostname),
        person_profiles: 'identified_only',
      });
      return posthog;
    })
    .catch(() => undefined);
}

export function identifyUser(user: Pick<User, 'id' | 'email' | 'full_name' | 'is_superuser'>): void {
  void client.then((posthog) =>
    posthog?.identify(user.id, { email: user.email, name: user.full_name, is_superuser: user.is_superuser }),
  );
}

export function captureSignUp(user: Pick<User, 'id'>, method: 'magic_link' | 'registration'): void {
  void client.then((posthog) => posthog?.capture(SIGN_UP_EVENT, { method, user_id: user.id }));
}

export function resetAnalytics(): void {
  void client.then((posthog) => posthog?.reset());
}
