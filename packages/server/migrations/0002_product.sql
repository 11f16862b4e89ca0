-- Product tables: agent sessions, instructions, attempts, submissions, leaderboard seeds, runners, jobs, session events.
-- Plain SQL that runs unchanged on PGlite and on Postgres 15 (gen_random_uuid is built in since Postgres 13).

CREATE TABLE IF NOT EXISTS agent_sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  problem_name text NOT NULL,
  -- A private reference (CustomProblemInput) for custom sessions; null for catalogue problems.
  custom_problem jsonb,
  name text NOT NULL,
  label text NOT NULL,
  device text NOT NULL,
  status text NOT NULL DEFAULT 'active',
  agent jsonb NOT NULL,
  -- Budgets: null means the configured default applies.
  max_total_attempts integer,
  max_runner_seconds double precision,
  runner_seconds double precision NOT NULL DEFAULT 0,
  input_tokens bigint NOT NULL DEFAULT 0,
  output_tokens bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX IF NOT EXISTS agent_sessions_owner_idx ON agent_sessions (owner_id, created_at DESC);
CREATE INDEX IF NOT EXISTS agent_sessions_problem_idx ON agent_sessions (problem_name, created_at DESC);

CREATE TABLE IF NOT EXISTS user_instructions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  session_id uuid NOT NULL REFERENCES agent_sessions (id) ON DELETE CASCADE,
  text text NOT NULL,
  name text NOT NULL,
  starred boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'active',
  max_attempts integer NOT NULL DEFAULT 5,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX IF NOT EXISTS user_instructions_session_idx ON user_instructions (session_id, created_at);

CREATE TABLE IF NOT EXISTS generation_attempts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  session_id uuid NOT NULL REFERENCES agent_sessions (id) ON DELETE CASCADE,
  instruction_id uuid REFERENCES user_instructions (id) ON DELETE SET NULL,
  attempt_number integer NOT NULL,
  status text NOT NULL DEFAULT 'queued',
  language text NOT NULL,
  source text,
  explanation text,
  error text,
  agent_meta jsonb,
  evaluation_state jsonb,
  token_usage jsonb,
  runner_seconds double precision,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  -- The guard that keeps a retried job from duplicating an attempt number.
  CONSTRAINT generation_attempts_number_uq UNIQUE (session_id, attempt_number)
);
CREATE INDEX IF NOT EXISTS generation_attempts_instruction_idx ON generation_attempts (instruction_id);
-- The per-user daily attempt limit counts rows by creation time.
CREATE INDEX IF NOT EXISTS generation_attempts_created_idx ON generation_attempts (created_at);

CREATE TABLE IF NOT EXISTS submissions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  problem_name text NOT NULL,
  device text NOT NULL,
  language text NOT NULL,
  source text NOT NULL,
  status text NOT NULL DEFAULT 'queued',
  verdict text,
  time_ms double precision,
  speedup double precision,
  flagged_for_review boolean NOT NULL DEFAULT false,
  evaluation_state jsonb,
  session_id uuid,
  attempt_id uuid,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX IF NOT EXISTS submissions_user_idx ON submissions (user_id, created_at DESC);
CREATE INDEX IF NOT EXISTS submissions_board_idx ON submissions (problem_name, device, time_ms) WHERE verdict = 'accepted';

-- One secret seed per leaderboard (problem and device). Read only when a ranked job is queued; never returned.
CREATE TABLE IF NOT EXISTS leaderboard_seeds (
  problem_name text NOT NULL,
  device text NOT NULL,
  seed text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (problem_name, device)
);

CREATE TABLE IF NOT EXISTS runners (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  -- The sdk Device list the runner announced at registration.
  devices jsonb NOT NULL,
  version text,
  -- true for this process's in-process runner; those rows are refreshed on start.
  local boolean NOT NULL DEFAULT false,
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS jobs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL,
  payload jsonb NOT NULL,
  -- Evaluate jobs name the device that must run them; generate jobs run on any server replica.
  device text,
  status text NOT NULL DEFAULT 'queued',
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 3,
  lease_token text,
  lease_expires_at timestamptz,
  runner_id text,
  last_error text,
  dead_reason text,
  -- At most one live job per logical step (e.g. `evaluate:attempt:<id>`), so a retried producer cannot enqueue twice.
  dedupe_key text UNIQUE,
  session_id uuid,
  run_after timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS jobs_ready_idx ON jobs (kind, run_after) WHERE status = 'queued';
CREATE INDEX IF NOT EXISTS jobs_lease_idx ON jobs (lease_expires_at) WHERE status = 'leased';
CREATE INDEX IF NOT EXISTS jobs_session_idx ON jobs (session_id) WHERE session_id IS NOT NULL;

-- The replay buffer for SSE: a reconnecting client asks for everything after its Last-Event-ID.
CREATE TABLE IF NOT EXISTS session_events (
  id bigserial PRIMARY KEY,
  session_id uuid NOT NULL,
  type text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS session_events_session_idx ON session_events (session_id, id);
