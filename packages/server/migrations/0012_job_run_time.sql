-- Fair share by runner time (docs/evaluation.md, "Who runs next"): how long a job has held a runner, over the leases
-- that have ended (done, dead, cancelled while leased, or back to the queue for a retry), and when the last of them
-- ended, so a claim can sum each user's recent runner time and prefer the user who used least.
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS run_seconds double precision NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS lease_ended_at timestamptz;
CREATE INDEX IF NOT EXISTS jobs_owner_ran_idx ON jobs (kind, lease_ended_at) WHERE owner_id IS NOT NULL;
