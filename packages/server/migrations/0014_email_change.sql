-- Changing an account's email address (issue 35 item 11): the confirmation link mailed to the new address is a
-- one-time token of its own purpose, so it can never be used to register or sign in. Its row holds the new address
-- in `email` and {user_id} in `payload`.
ALTER TABLE one_time_tokens DROP CONSTRAINT IF EXISTS one_time_tokens_purpose_check;
ALTER TABLE one_time_tokens ADD CONSTRAINT one_time_tokens_purpose_check
  CHECK (purpose IN ('magic_link', 'email_verification', 'email_change'));
