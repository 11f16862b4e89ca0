-- Sweeps (issue 24): one agent over a problem set, one ordinary agent session per problem, scored by fast_p.
CREATE TABLE IF NOT EXISTS sweeps (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  agent jsonb NOT NULL,
  device text NOT NULL,
  instruction text,
  attempts_per_problem integer NOT NULL,
  -- The named set the problems came from (c-abi, pytorch-level1, ...); null for a list of names.
  set_name text,
  stopped_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX IF NOT EXISTS sweeps_owner_idx ON sweeps (owner_id, created_at DESC);
CREATE INDEX IF NOT EXISTS sweeps_set_idx ON sweeps (set_name, device) WHERE deleted_at IS NULL;

-- A sweep's problems, each with its session (the link from sessions to their sweep) and the ranked re-run of its
-- best attempt: pending (the session works) -> evaluating (the ranked job is queued) -> evaluated | failed.
CREATE TABLE IF NOT EXISTS sweep_problems (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  sweep_id uuid NOT NULL REFERENCES sweeps (id) ON DELETE CASCADE,
  position integer NOT NULL,
  problem_name text NOT NULL,
  session_id uuid REFERENCES agent_sessions (id) ON DELETE SET NULL,
  status text NOT NULL DEFAULT 'pending',
  best_attempt_id uuid,
  correct boolean NOT NULL DEFAULT false,
  speedup double precision,
  speedup_interval jsonb,
  verdict text,
  error text,
  evaluated_at timestamptz,
  CONSTRAINT sweep_problems_position_uq UNIQUE (sweep_id, position)
);
CREATE INDEX IF NOT EXISTS sweep_problems_session_idx ON sweep_problems (session_id);

-- Problem sets an admin saves, offered beside the built-in ones (c-abi, pytorch-level1..3) by name.
CREATE TABLE IF NOT EXISTS sweep_sets (
  name text PRIMARY KEY,
  problems jsonb NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
