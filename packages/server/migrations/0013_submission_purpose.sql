-- "Run tests" apart from "Submit" (issue 35): a test run is a submission row evaluated in benchmark mode (public
-- inputs, never the board's secret seed) that no leaderboard, review queue, notice or daily submission quota counts.
ALTER TABLE submissions ADD COLUMN IF NOT EXISTS purpose text NOT NULL DEFAULT 'submit';
CREATE INDEX IF NOT EXISTS submissions_tests_idx ON submissions (user_id, created_at) WHERE purpose = 'test';
