-- When a job's current lease began, so a session's progress can say how long this generation or evaluation has run
-- and how long the earlier ones took (updated_at moves with every heartbeat). Null for jobs leased before this column.
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS leased_at timestamptz;
