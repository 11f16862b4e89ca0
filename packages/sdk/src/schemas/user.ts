// Users, auth responses, API tokens and site settings (spec sections 3 and 7, DESIGN section 4).
import { z } from 'zod';
import { Id, Timestamp } from './common.js';

export const User = z.object({
  id: Id,
  email: z.string(),
  full_name: z.string().nullable(),
  /** The name shown to other users (leaderboards, submissions); null: the full name, else a neutral handle. */
  display_name: z.string().nullable().default(null),
  created_at: Timestamp,
  is_superuser: z.boolean(),
  is_active: z.boolean().default(true),
});
export type User = z.infer<typeof User>;

export const DISPLAY_NAME_MAX = 40;

/** PATCH /api/v1/users/me: the signed-in user's own settings; an empty display name clears it. */
export const UpdateMeRequest = z.object({ display_name: z.string().trim().max(DISPLAY_NAME_MAX).nullable() });
export type UpdateMeRequest = z.infer<typeof UpdateMeRequest>;

export const LoginResponse = z.object({
  access_token: z.string(),
  token_type: z.string().default('bearer'),
});
export type LoginResponse = z.infer<typeof LoginResponse>;

/** `users/register` answers the token and the user; the web treats a missing access token as 'Unknown error'. */
export const RegisterResponse = z.object({
  token: z.object({ access_token: z.string().optional(), token_type: z.string().optional() }),
  user: User,
});
export type RegisterResponse = z.infer<typeof RegisterResponse>;

export const PasswordLoginInput = z.object({
  username: z.string(),
  password: z.string(),
});
export type PasswordLoginInput = z.infer<typeof PasswordLoginInput>;

export const MagicLinkRequest = z.object({ email: z.string().email(), application: z.string().default('kernelforge') });
export type MagicLinkRequest = z.input<typeof MagicLinkRequest>;

export const EmailVerificationRequest = z.object({
  email: z.string().email(),
  application: z.string().default('kernelforge'),
  full_name: z.string().max(255).optional(),
  password: z.string().min(8).max(128).optional(),
});
export type EmailVerificationRequest = z.input<typeof EmailVerificationRequest>;

export const RegisterRequest = z.object({ email_verification_token: z.string().min(1) });
export type RegisterRequest = z.infer<typeof RegisterRequest>;

export const TokenLoginRequest = z.object({ token: z.string().min(1) });
export type TokenLoginRequest = z.infer<typeof TokenLoginRequest>;

export const GoogleLoginRequest = z.object({ id_token: z.string().min(1) });
export type GoogleLoginRequest = z.infer<typeof GoogleLoginRequest>;

/** An agent a user may pick for a session, with the models it offers. */
export const AgentOffer = z.object({
  provider: z.string(),
  models: z.array(z.string()),
  default_model: z.string().nullable(),
});
export type AgentOffer = z.infer<typeof AgentOffer>;

export const Settings = z.object({
  posthog_key: z.string().nullable(),
  posthog_host: z.string().nullable(),
  feedback_survey_id: z.string().nullable(),
  waitlist_survey_id: z.string().nullable(),
  google_client_id: z.string().nullable(),
  page_urls: z.object({
    terms_of_service: z.string().nullable(),
    privacy_policy: z.string().nullable(),
    contact_us: z.string().nullable(),
  }),
  auth_server: z.object({ url: z.string(), application_name: z.string() }),
  /** Agents and models this server offers (DESIGN section 7); also at GET /api/v1/agents. */
  agents: z.array(AgentOffer).default([]),
});
export type Settings = z.infer<typeof Settings>;

export const ApiToken = z.object({
  id: Id,
  name: z.string(),
  /** The first characters of the token, e.g. `kf_3Xa9`, to tell tokens apart. */
  prefix: z.string(),
  created_at: Timestamp,
  last_used_at: Timestamp.nullable(),
  expires_at: Timestamp.nullable(),
});
export type ApiToken = z.infer<typeof ApiToken>;

/** The one response that carries the token itself. */
export const CreatedApiToken = ApiToken.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;

export const CreateApiTokenRequest = z.object({
  name: z.string().trim().min(1).max(100),
  expires_in_days: z.number().int().min(1).max(3650).optional(),
});
export type CreateApiTokenRequest = z.infer<typeof CreateApiTokenRequest>;

export const OutboxMail = z.object({
  id: Id,
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  created_at: Timestamp,
});
export type OutboxMail = z.infer<typeof OutboxMail>;
