// `kforge whoami`: who the token belongs to, which server, and where each setting came from.
import { Command } from 'commander';
import type { ResolvedConfig } from '../../config/resolve.js';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { CliError, NOT_SIGNED_IN_HINT } from '../../core/errors.js';
import { ExitCode } from '../../core/exit-codes.js';

export function whoamiCommand(runtime: Runtime): Command {
  const command = new Command('whoami').description(
    'show the signed-in user, the server, and where the credentials are kept',
  );
  examples(command, [
    ['kforge whoami', 'who am I, on which server'],
    ['kforge whoami --json', 'the same as JSON (user, profile, api_url, token_source, credentials_path)'],
  ]);
  return handle<[], object>(runtime, command, whoami);
}

export function describeTokenSource(config: ResolvedConfig): string {
  if (config.tokenSource === 'env')
    return `the KFORGE_TOKEN environment variable (it overrides ${config.credentialsFile})`;
  if (config.tokenSource === 'file') return `${config.credentialsFile} (profile ${config.profile})`;
  return 'none';
}

export function describeApiUrlSource(config: ResolvedConfig): string {
  switch (config.apiUrlSource) {
    case 'flag':
      return '--api-url';
    case 'env':
      return 'KFORGE_API_URL';
    case 'profile':
      return `profile ${config.profile}`;
    default:
      return 'the default';
  }
}

async function whoami(ctx: CommandContext): Promise<ExitCode> {
  const { config, output } = ctx;
  if (config.tokenSource === 'none') {
    throw new CliError(
      `Not signed in: KFORGE_TOKEN is not set and ${config.credentialsFile} holds no token.`,
      ExitCode.auth,
      NOT_SIGNED_IN_HINT,
    );
  }
  const client = await ctx.client();
  const user = await client.auth.me();
  if (output.json) {
    output.printJson({
      user,
      profile: config.profile,
      api_url: config.apiUrl,
      api_url_source: config.apiUrlSource,
      token_source: config.tokenSource,
      credentials_path: config.credentialsFile,
    });
    return ExitCode.ok;
  }
  const { style } = output;
  output.fields([
    [
      'User',
      `${style.bold(user.email)}${user.full_name ? ` (${user.full_name})` : ''}${user.is_superuser ? style.yellow(' superuser') : ''}`,
    ],
    ['Server', `${config.apiUrl} ${style.dim(`(from ${describeApiUrlSource(config)})`)}`],
    ['Token', describeTokenSource(config)],
    ['Profile', config.profile],
  ]);
  return ExitCode.ok;
}
