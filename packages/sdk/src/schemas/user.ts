// Users, auth responses, API tokens and site settings (spec sections 3 and 7, DESIGN section 4).
import { z } from 'zod';
import { Id, PageParams, Timestamp, Text } from './common.js';

export const User = z.object({
  id: Id,
  email: Text,
  full_name: Text.nullable(),
  /** The name shown to other users (leaderboards, submissions); null: the full name, else the handle. */
  display_name: Text.nullable().default(null),
  /** A handle made of words ("amber-falcon-42"), chosen at random once: what others see without a display or full name. */
  handle: Text.optional(),
  created_at: Timestamp,
  is_superuser: z.boolean(),
  is_active: z.boolean().default(true),
  /** Whether the account has a password (false: it signs in by mail link or Google only); absent from older servers. */
  has_password: z.boolean().optional(),
  /** Whether a ranked result's finish or flag for review is mailed to its owner (default on); absent from older servers. */
  mail_results: z.boolean().optional(),
});
export type User = z.infer<typeof User>;

export const DISPLAY_NAME_MAX = 40;

/** PATCH /api/v1/users/me: the signed-in user's own settings; an empty display name clears it (no NUL, as every Text). */
export const UpdateMeRequest = z.object({
  /** Absent: unchanged. */
  display_name: Text.trim().max(DISPLAY_NAME_MAX).nullable().optional(),
  /** "Email me when a result finishes": mail when a ranked result finishes or is flagged for review. Absent: unchanged. */
  mail_results: z.boolean().optional(),
});
export type UpdateMeRequest = z.infer<typeof UpdateMeRequest>;

/**
 * A forgotten password: for this long after signing in by an emailed link, that session may set a new password
 * without the current one (the server's rule; the Account page says so while it holds).
 */
export const PASSWORD_RESET_BY_LINK_MS = 15 * 60_000;

/** The password rule, the same at registration and when a signed-in user sets or changes theirs. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const NewPassword = Text.min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters`).max(
  PASSWORD_MAX,
  `Use at most ${PASSWORD_MAX} characters`,
);

/**
 * PUT /api/v1/users/me/password: set a password (an account made by magic link or Google has none) or change it;
 * an account that has one must give it as current_password.
 */
export const SetPasswordRequest = z.object({
  current_password: Text.max(1024).optional(),
  new_password: NewPassword,
});
export type SetPasswordRequest = z.infer<typeof SetPasswordRequest>;

/**
 * POST /api/v1/users/me/email: mail a confirmation link to a new address; the address changes only when the link is
 * used (POST /api/v1/users/me/email/confirm). An account with a password gives it as current_password.
 */
export const ChangeEmailRequest = z.object({
  new_email: Text.trim().max(320).email('Give an email address, like ada@example.com'),
  current_password: Text.max(1024).optional(),
});
export type ChangeEmailRequest = z.infer<typeof ChangeEmailRequest>;

/** POST /api/v1/users/me/email/confirm: the token from the confirmation link's `token` parameter. */
export const ConfirmEmailRequest = z.object({ token: Text.min(1).max(512) });
export type ConfirmEmailRequest = z.infer<typeof ConfirmEmailRequest>;

/**
 * DELETE /api/v1/users/me: `confirm` is the account's email address or the word `delete`; an account with a password
 * gives it as current_password. What is deleted and what is kept: docs/api.md, "Deleting an account".
 */
export const DeleteMeRequest = z.object({
  confirm: Text.trim().max(320),
  current_password: Text.max(1024).optional(),
});
export type DeleteMeRequest = z.infer<typeof DeleteMeRequest>;

export const LoginResponse = z.object({
  access_token: Text,
  token_type: Text.default('bearer'),
});
export type LoginResponse = z.infer<typeof LoginResponse>;

/** `users/register` answers the token and the user; the web treats a missing access token as 'Unknown error'. */
export const RegisterResponse = z.object({
  token: z.object({ access_token: Text.optional(), token_type: Text.optional() }),
  user: User,
});
export type RegisterResponse = z.infer<typeof RegisterResponse>;

export const PasswordLoginInput = z.object({
  username: Text.max(320),
  password: Text.max(1024),
});
export type PasswordLoginInput = z.infer<typeof PasswordLoginInput>;

export const MagicLinkRequest = z.object({
  email: Text.max(320).email(),
  application: Text.max(100).default('kernelforge'),
});
export type MagicLinkRequest = z.input<typeof MagicLinkRequest>;

export const EmailVerificationRequest = z.object({
  email: Text.max(320).email(),
  application: Text.max(100).default('kernelforge'),
  full_name: Text.max(255).optional(),
  password: NewPassword.optional(),
});
export type EmailVerificationRequest = z.input<typeof EmailVerificationRequest>;

export const RegisterRequest = z.object({ email_verification_token: Text.min(1).max(512) });
export type RegisterRequest = z.infer<typeof RegisterRequest>;

export const TokenLoginRequest = z.object({ token: Text.min(1).max(512) });
export type TokenLoginRequest = z.infer<typeof TokenLoginRequest>;

export const GoogleLoginRequest = z.object({ id_token: Text.min(1).max(8192) });
export type GoogleLoginRequest = z.infer<typeof GoogleLoginRequest>;

/** An agent a user may pick for a session, with the models it offers. */
export const AgentOffer = z.object({
  provider: Text,
  models: z.array(Text),
  default_model: Text.nullable(),
});
export type AgentOffer = z.infer<typeof AgentOffer>;

export const Settings = z.object({
  posthog_key: Text.nullable(),
  posthog_host: Text.nullable(),
  feedback_survey_id: Text.nullable(),
  waitlist_survey_id: Text.nullable(),
  google_client_id: Text.nullable(),
  page_urls: z.object({
    terms_of_service: Text.nullable(),
    privacy_policy: Text.nullable(),
    contact_us: Text.nullable(),
  }),
  auth_server: z.object({ url: Text, application_name: Text }),
  /** Agents and models this server offers (DESIGN section 7); also at GET /api/v1/agents. */
  agents: z.array(AgentOffer).default([]),
});
export type Settings = z.infer<typeof Settings>;

/**
 * What an API token may do: `read` every GET the user may make; `submit` solutions (POST /submission);
 * `sessions` start, steer, rename, stop, delete and restore agent sessions and instructions; `tokens` list, create
 * and revoke API tokens. Access tokens from signing in can do everything their user can.
 */
export const TokenScope = z.enum(['read', 'submit', 'sessions', 'tokens']);
export type TokenScope = z.infer<typeof TokenScope>;
export const TOKEN_SCOPES: readonly TokenScope[] = TokenScope.options;

/** Named sets of scopes: `full` (every scope, the default) and `ci` (read and submit: never manages tokens). */
export const TOKEN_SCOPE_PRESETS = {
  full: ['read', 'submit', 'sessions', 'tokens'],
  ci: ['read', 'submit'],
} as const satisfies Record<string, readonly TokenScope[]>;
export type TokenScopePreset = keyof typeof TOKEN_SCOPE_PRESETS;

export const ApiToken = z.object({
  id: Id,
  name: Text,
  /** The first characters of the token, e.g. `kf_3Xa9`, to tell tokens apart. */
  prefix: Text,
  created_at: Timestamp,
  last_used_at: Timestamp.nullable(),
  expires_at: Timestamp.nullable(),
  /** What it may do; a server from before scopes sends none, and its tokens could do everything. */
  scopes: z.array(TokenScope).default([...TOKEN_SCOPES]),
});
export type ApiToken = z.infer<typeof ApiToken>;

/** The one response that carries the token itself. */
export const CreatedApiToken = ApiToken.extend({ token: Text });
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;

export const CreateApiTokenRequest = z.object({
  name: Text.trim().min(1).max(100),
  expires_in_days: z.number().int().min(1).max(3650).optional(),
  /** Default: every scope. A token can only give a new token scopes it has itself. */
  scopes: z.array(TokenScope).min(1).max(TOKEN_SCOPES.length).optional(),
});
export type CreateApiTokenRequest = z.input<typeof CreateApiTokenRequest>;

export const OutboxMail = z.object({
  id: Id,
  to: Text,
  subject: Text,
  text: Text,
  created_at: Timestamp,
});
export type OutboxMail = z.infer<typeof OutboxMail>;

/** GET /api/v1/users (superusers): `q` matches the email, full name, display name or handle (case-insensitive). */
export const UserListParams = PageParams.extend({ q: Text.trim().max(200).optional() });
export type UserListParams = z.infer<typeof UserListParams>;

/** PATCH /api/v1/users/{id} (superusers): make or unmake a superuser, deactivate or reactivate an account. */
export const UpdateUserRequest = z.object({ is_superuser: z.boolean().optional(), is_active: z.boolean().optional() });
export type UpdateUserRequest = z.infer<typeof UpdateUserRequest>;

/** GET /api/v1/admin/status (superusers): runners, devices, the job queue and the jobs in flight. */
export const AdminStatus = z.object({
  runners: z.array(
    z.object({
      id: Id,
      name: Text,
      local: z.boolean(),
      version: Text.nullable(),
      devices: z.array(Text),
      last_seen_at: Timestamp,
    }),
  ),
  devices: z.array(z.object({ id: Text, kind: Text, available: z.boolean(), runners: z.number().int() })),
  queue: z.array(z.object({ kind: Text, status: Text, count: z.number().int() })),
  in_flight: z.array(
    z.object({
      id: Id,
      kind: Text,
      device: Text.nullable(),
      runner_id: Text.nullable(),
      attempts: z.number().int(),
      lease_expires_at: Timestamp.nullable(),
      created_at: Timestamp,
      /** Whose work it is (absent from servers before it was shown). */
      owner: z.object({ id: Id, email: Text }).nullable().optional(),
      /** What it works on, in words, and that work's page in the web. */
      target: Text.nullable().optional(),
      href: Text.nullable().optional(),
    }),
  ),
});
export type AdminStatus = z.infer<typeof AdminStatus>;
