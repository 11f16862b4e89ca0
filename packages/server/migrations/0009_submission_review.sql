-- A superuser's decision on a result flagged for review: approved ranks among unflagged results, rejected leaves
-- the rankings; the reason and who decided when are kept.
ALTER TABLE submissions ADD COLUMN IF NOT EXISTS review_status text;
ALTER TABLE submissions ADD COLUMN IF NOT EXISTS review_reason text;
ALTER TABLE submissions ADD COLUMN IF NOT EXISTS reviewed_by uuid;
ALTER TABLE submissions ADD COLUMN IF NOT EXISTS reviewed_at timestamptz;
CREATE INDEX IF NOT EXISTS submissions_review_idx ON submissions (created_at) WHERE flagged_for_review;
