-- Fairness of the evaluation queue: a job's priority decides before its age, so a user's submission or the first
-- attempt of a fresh instruction does not wait behind a long run of later session attempts on a single runner.
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS priority integer NOT NULL DEFAULT 0;
DROP INDEX IF EXISTS jobs_ready_idx;
CREATE INDEX IF NOT EXISTS jobs_ready_idx ON jobs (kind, priority DESC, run_after) WHERE status = 'queued';
