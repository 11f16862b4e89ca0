-- API token scopes: what a token may do (read, submit, sessions, tokens). Existing tokens keep every scope, as before.
ALTER TABLE api_tokens ADD COLUMN IF NOT EXISTS scopes text[] NOT NULL DEFAULT ARRAY['read', 'submit', 'sessions', 'tokens'];

-- Short-lived, single-use tickets for a session's live events, so a client that cannot send headers (the browser's
-- EventSource) never puts a bearer token in a URL, where proxies and access logs would keep it.
CREATE TABLE IF NOT EXISTS event_tickets (
  ticket_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  session_id uuid NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS event_tickets_expires_idx ON event_tickets (expires_at);
