// `kforge login`: checks an API token with users/me and keeps it (0600) with the server's URL in a profile.
import { Command } from 'commander';
import { updateProfile } from '../../config/config-file.js';
import { normalizeApiUrl } from '../../config/resolve.js';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { CliError, UsageError } from '../../core/errors.js';
import { ExitCode } from '../../core/exit-codes.js';
import { readSecretLine, readStdin } from '../../internal/prompt.js';

interface LoginOptions {
  token?: string;
}

export function loginCommand(runtime: Runtime): Command {
  const command = new Command('login')
    .description('sign in with an API token (verified, then stored in your config directory with mode 0600)')
    .option('--token <token>', 'the API token (otherwise pasted at the prompt, or read from stdin when piped)');
  examples(command, [
    ['kforge login', 'paste a token created in the web app under API tokens'],
    ['kforge login --token kf_... --api-url https://kforge.example.com', 'sign in to another server'],
    ['echo "$KF_TOKEN" | kforge login', 'read the token from stdin'],
    ['kforge --profile work login', 'keep a second account in the profile "work"'],
  ]);
  return handle<[], LoginOptions>(runtime, command, login);
}

async function login(ctx: CommandContext, _args: [], options: LoginOptions): Promise<ExitCode> {
  const { output, config } = ctx;
  const token = (options.token ?? (await askForToken(ctx))).trim();
  if (!token) throw new UsageError('No token given.', 'Pass --token, pipe it on stdin, or paste it at the prompt.');
  const apiUrl = normalizeApiUrl(config.apiUrl);
  const client = await ctx.client({ token });
  const { AuthenticationError } = await ctx.sdk();
  const user = await client.auth.me().catch((error: unknown) => {
    if (error instanceof AuthenticationError) {
      throw new CliError(
        `The server at ${apiUrl} refused that token${error.detail ? ` (${error.detail})` : ''}.`,
        ExitCode.auth,
        'Create a new token in the web app under API tokens, or with `kforge tokens create` where you are signed in.',
      );
    }
    throw error;
  });
  const { FileTokenStore } = await import('@kernelforge/sdk/node');
  await new FileTokenStore(config.credentialsFile).set(token);
  await updateProfile(config.configFile, config.profile, (entry) => {
    // Cached settings belong to the server they came from.
    const { settings, ...rest } = entry;
    const sameServer = entry.api_url === apiUrl;
    return {
      ...rest,
      ...(sameServer && settings ? { settings } : {}),
      api_url: apiUrl,
      user: { id: user.id, email: user.email },
    };
  });
  if (output.json) {
    output.printJson({ user, profile: config.profile, api_url: apiUrl, credentials_path: config.credentialsFile });
  } else {
    output.success(`Signed in to ${apiUrl} as ${output.errStyle.bold(user.email)} (profile ${config.profile}).`);
    output.info(`Credentials saved to ${config.credentialsFile} (mode 0600).`);
  }
  if (config.tokenSource === 'env') output.warn('KFORGE_TOKEN is set and overrides the stored token while it is.');
  return ExitCode.ok;
}

async function askForToken(ctx: CommandContext): Promise<string> {
  const { stdin } = ctx.io;
  if (!stdin.isTTY) return readStdin(stdin);
  const where = `${ctx.config.apiUrl}/tokens/`;
  ctx.output.info(`Create an API token at ${where} (or with \`kforge tokens create\` where you are signed in).`);
  return readSecretLine(stdin, ctx.io.stderr, 'Paste your token: ');
}
