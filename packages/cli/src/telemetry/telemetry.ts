// Usage events (which command, how it ended, how long it took) to the server's PostHog project, only when
// the server's settings give a key and the user has not opted out. It never holds a command up: settings are
// cached with the profile and refreshed in the background; sending waits at most a short moment at exit.
import { arch, platform } from 'node:os';
import { anonymousId, type CachedSettings, updateProfile } from '../config/config-file.js';
import type { TelemetryHandle } from '../core/command.js';
import type { CommandContext, Env } from '../core/context.js';
import { VERSION } from '../core/version.js';
import { createFetch } from '../http/proxy-fetch.js';

/** How long cached settings are trusted. */
const SETTINGS_TTL_MS = 24 * 60 * 60 * 1000;
/** At exit, how long to wait for settings still on their way (first run against a server). */
const SETTINGS_WAIT_MS = 300;
/** At exit, how long PostHog may take to send the event. */
const FLUSH_TIMEOUT_MS = 1500;
export const EVENT_NAME = 'cli command';

const NOOP: TelemetryHandle = { finish: async () => {} };

export function telemetryOptedOut(env: Env): boolean {
  const off = (value: string | undefined) =>
    value !== undefined && ['0', 'false', 'off', 'no'].includes(value.trim().toLowerCase());
  const on = (value: string | undefined) => value !== undefined && value.trim() !== '' && !off(value);
  return off(env.KFORGE_TELEMETRY) || on(env.DO_NOT_TRACK);
}

function freshSettings(ctx: CommandContext): CachedSettings | undefined {
  const cached = ctx.config.data.profiles[ctx.config.profile]?.settings;
  if (!cached || cached.api_url !== ctx.config.apiUrl) return undefined;
  const age = Date.now() - Date.parse(cached.fetched_at);
  return age >= 0 && age < SETTINGS_TTL_MS ? cached : undefined;
}

export function startTelemetry(ctx: CommandContext): TelemetryHandle {
  if (telemetryOptedOut(ctx.env)) return NOOP;
  const started = Date.now();
  const cached = freshSettings(ctx);
  const refreshing = cached ? undefined : refreshSettings(ctx);
  return {
    async finish(exitCode: number) {
      try {
        const settings = cached ?? (await withDeadline(refreshing, SETTINGS_WAIT_MS));
        if (!settings?.posthog_key) return;
        await sendEvent(ctx, settings, {
          command: ctx.commandName,
          exit_code: exitCode,
          duration_ms: Date.now() - started,
          output: ctx.output.mode,
        });
      } catch {
        // Telemetry must never change how a command ends.
      }
    },
  };
}

async function refreshSettings(ctx: CommandContext): Promise<CachedSettings | undefined> {
  try {
    const client = await ctx.client({ auth: false });
    const settings = await client.settings.get({ maxRetries: 0, timeoutMs: 3000 });
    const cached: CachedSettings = {
      api_url: ctx.config.apiUrl,
      posthog_key: settings.posthog_key,
      posthog_host: settings.posthog_host,
      fetched_at: new Date().toISOString(),
    };
    await updateProfile(ctx.config.configFile, ctx.config.profile, (entry) => ({ ...entry, settings: cached }));
    return cached;
  } catch {
    return undefined;
  }
}

async function sendEvent(ctx: CommandContext, settings: CachedSettings, properties: Record<string, unknown>) {
  const [{ PostHog }, fetch, distinctId] = await Promise.all([
    import('posthog-node'),
    createFetch(ctx.env),
    anonymousId(ctx.config.configFile),
  ]);
  const client = new PostHog(settings.posthog_key as string, {
    ...(settings.posthog_host ? { host: settings.posthog_host } : {}),
    flushAt: 1,
    flushInterval: 0,
    fetchRetryCount: 0,
    requestTimeout: FLUSH_TIMEOUT_MS,
    disableGeoip: true,
    fetch: fetch as never,
  });
  client.capture({
    distinctId,
    event: EVENT_NAME,
    properties: {
      ...properties,
      cli_version: VERSION,
      node_version: process.versions.node,
      os: platform(),
      arch: arch(),
      ci: Boolean(ctx.env.CI),
      $process_person_profile: false,
    },
  });
  await client.shutdown(FLUSH_TIMEOUT_MS);
}

function withDeadline<T>(promise: Promise<T> | undefined, ms: number): Promise<T | undefined> {
  if (!promise) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
    );
  });
}
