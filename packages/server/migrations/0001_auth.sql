-- Users, API tokens, one-time tokens (magic links, email verification) and the mail outbox.

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Stored lower-cased and trimmed, so the unique index is the case-insensitive one.
  email text NOT NULL UNIQUE,
  full_name text,
  -- scrypt$N$r$p$salt$hash; null for accounts that sign in by mail or Google only.
  hashed_password text,
  is_superuser boolean NOT NULL DEFAULT false,
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  last_login_at timestamptz
);

CREATE TABLE api_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  prefix text NOT NULL,
  -- sha256 hex of the whole token; the token itself is never stored.
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  expires_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);

CREATE TABLE one_time_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  purpose text NOT NULL CHECK (purpose IN ('magic_link', 'email_verification')),
  token_hash text NOT NULL UNIQUE,
  email text NOT NULL,
  -- email_verification: {full_name, hashed_password}; never a plain password.
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX one_time_tokens_expires ON one_time_tokens (expires_at);

CREATE TABLE outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  to_address text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Set when SMTP accepted the mail; null in log-only mode or after a failure (see error).
  sent_at timestamptz,
  error text
);
CREATE INDEX outbox_created ON outbox (created_at DESC);
