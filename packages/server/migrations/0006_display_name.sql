-- The name a user picks to be shown by on leaderboards and submissions (their email is never shown to others).
ALTER TABLE users ADD COLUMN IF NOT EXISTS display_name text;
