// Site settings for the web app (spec section 3): analytics, Google client id, page links, the auth server, agents.
import { Settings } from '@kernelforge/sdk';
import type { Hono } from 'hono';
import { agentsConfigFrom, listAgents } from '../agents/index.js';
import type { Config } from '../config.js';
import type { AppContext } from '../context.js';
import type { AppEnv } from '../http/auth.js';
import { routeTable } from '../http/route.js';

export type AgentOffer = Settings['agents'][number];

/** The agents on offer, as the agents package lists them (the tuner always; an LLM provider when configured). */
export function defaultAgentOffers(config: Config): AgentOffer[] {
  return listAgents(agentsConfigFrom(config));
}

export function buildSettings(config: Config, agents: AgentOffer[]): Settings {
  return {
    posthog_key: config.posthog.key,
    posthog_host: config.posthog.host,
    feedback_survey_id: config.surveys.feedback,
    waitlist_survey_id: config.surveys.waitlist,
    google_client_id: config.google.clientId,
    page_urls: {
      terms_of_service: config.pageUrls.termsOfService,
      privacy_policy: config.pageUrls.privacyPolicy,
      contact_us: config.pageUrls.contactUs,
    },
    // Relative, so the web app works under whatever host name it is reached by; the sdk's Node client defaults to `${origin}/auth`.
    auth_server: { url: '/auth', application_name: 'kernelforge' },
    agents,
  };
}

export function mountSettingsRoutes(
  api: Hono<AppEnv>,
  ctx: AppContext,
  agents: (config: Config) => AgentOffer[] = defaultAgentOffers,
): void {
  routeTable(
    api,
    '/api/v1',
    {},
  )(
    { method: 'get', path: '/settings', summary: 'Site settings (no token needed)', auth: 'none', response: Settings },
    () => buildSettings(ctx.config, agents(ctx.config)),
  );
}
