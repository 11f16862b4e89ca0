// First start on an empty database: a superuser from KFORGE_ADMIN_EMAIL/PASSWORD, or a one-time sign-in link in the log.
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { Logger } from '../log.js';
import { magicLinkUrl } from '../mail/templates.js';
import { issueOneTimeToken } from './one-time-tokens.js';
import { createUser, findUserByEmail, normalizeEmail } from './users.js';

// Long enough to read the log after a restart; still single use.
const BOOTSTRAP_LINK_TTL_MS = 24 * 60 * 60 * 1000;

export const DEFAULT_ADMIN_EMAIL = 'admin@localhost';

/**
 * Runs at every start. Creates the first superuser when there are no users; while that superuser has never
 * signed in and has no password, each start prints a fresh sign-in link, so a lost log is never a locked door.
 */
export async function ensureFirstSuperuser(config: Config, database: Database, log: Logger): Promise<void> {
  const count = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  if ((count[0]?.n ?? 0) === 0) {
    const email = normalizeEmail(config.adminEmail ?? DEFAULT_ADMIN_EMAIL);
    try {
      await createUser(database, { email, password: config.adminPassword, isSuperuser: true });
      log.info(`created the first superuser ${email}${config.adminPassword ? ' with KFORGE_ADMIN_PASSWORD' : ''}`);
    } catch (err) {
      // Another replica created it at the same moment.
      if ((err as { code?: string }).code !== '23505') throw err;
    }
  } else if (config.adminEmail && config.adminPassword) {
    // The configured admin exists already (or another user does): nothing to create; never reset a password here.
    const existing = await findUserByEmail(database, config.adminEmail);
    if (!existing) log.info(`KFORGE_ADMIN_EMAIL ${config.adminEmail} ignored: the database already has users`);
  }
  const waiting = await database.query<{ email: string }>(
    `SELECT email FROM users WHERE is_superuser AND hashed_password IS NULL AND last_login_at IS NULL
     ORDER BY created_at LIMIT 1`,
  );
  const admin = waiting[0];
  if (admin) {
    const token = await issueOneTimeToken(
      database,
      'magic_link',
      admin.email,
      { bootstrap: true },
      BOOTSTRAP_LINK_TTL_MS,
    );
    log.info(
      `superuser ${admin.email} has not signed in yet; one-time sign-in link (valid 24 h): ${magicLinkUrl(config.publicUrl, token)}`,
    );
  }
}
