// `kforge-server create-user --email E --password P [--superuser] [--full-name N]`: adds a user to the configured database.
import { createUser, normalizeEmail } from '../auth/users.js';
import type { Config } from '../config.js';
import { createContext } from '../context.js';
import { parseArgs } from './args.js';

export const CREATE_USER_USAGE =
  'usage: kforge-server create-user --email E --password P [--superuser] [--full-name N]';

/** Returns the exit code: 0 created, 1 failed, 2 bad arguments. */
export async function createUserCommand(
  argv: string[],
  config: Config,
  out: (line: string) => void = console.log,
): Promise<number> {
  const { flags } = parseArgs(argv);
  const email = typeof flags.email === 'string' ? normalizeEmail(flags.email) : '';
  const password = typeof flags.password === 'string' ? flags.password : '';
  if (!/^[^@\s]+@[^@\s]+$/.test(email) || password.length < 8) {
    out(`${CREATE_USER_USAGE}\n(the email must be an address and the password at least 8 characters)`);
    return 2;
  }
  const ctx = await createContext(config, { skipBootstrap: true });
  try {
    const user = await createUser(ctx.db, {
      email,
      password,
      isSuperuser: flags.superuser === true,
      fullName: typeof flags['full-name'] === 'string' ? flags['full-name'] : null,
    });
    out(`kforge-server create-user: created ${user.email}${user.is_superuser ? ' (superuser)' : ''} id=${user.id}`);
    return 0;
  } catch (err) {
    if ((err as { code?: string }).code === '23505') {
      out(`kforge-server create-user: ${email} already exists`);
      return 1;
    }
    throw err;
  } finally {
    await ctx.close();
  }
}
