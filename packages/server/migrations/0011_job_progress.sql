-- Where a leased evaluation is now, as its runner last reported it with a heartbeat: {stage, case_index, case_count,
-- samples} (sdk EvaluationProgress). Informational only (a session's progress shows it); cleared whenever the job's
-- lease ends or a new one begins.
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS progress jsonb;
