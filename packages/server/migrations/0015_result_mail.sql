-- Mail when a result finishes or is flagged (issue 35 item 4): whether a user wants it ("Email me when a result
-- finishes" on /account, default on), and when each mail went out, so a submission's is sent at most once.
ALTER TABLE users ADD COLUMN IF NOT EXISTS mail_results boolean NOT NULL DEFAULT true;
ALTER TABLE submissions ADD COLUMN IF NOT EXISTS finish_mailed_at timestamptz;
ALTER TABLE submissions ADD COLUMN IF NOT EXISTS flag_mailed_at timestamptz;
