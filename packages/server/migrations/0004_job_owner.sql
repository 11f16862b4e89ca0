-- Fair share between users: each job names the user it works for, and a claim prefers the user with the fewest
-- jobs of that kind running, so one user's many sessions cannot hold a shared runner for everyone else.
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS owner_id uuid;
UPDATE jobs SET owner_id = s.owner_id FROM agent_sessions s
  WHERE jobs.owner_id IS NULL AND jobs.session_id = s.id AND jobs.status IN ('queued', 'leased');
UPDATE jobs SET owner_id = sub.user_id FROM submissions sub
  WHERE jobs.owner_id IS NULL AND jobs.session_id IS NULL AND jobs.status IN ('queued', 'leased')
    AND jobs.payload->>'kind' = 'submission' AND sub.id::text = jobs.payload->>'target_id';
CREATE INDEX IF NOT EXISTS jobs_owner_leased_idx ON jobs (owner_id, kind) WHERE status = 'leased';
