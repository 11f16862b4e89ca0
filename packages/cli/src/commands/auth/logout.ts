// `kforge logout`: forgets the profile's stored token (the token itself stays valid until revoked).
import { rm, stat } from 'node:fs/promises';
import { Command } from 'commander';
import { updateProfile } from '../../config/config-file.js';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';

export function logoutCommand(runtime: Runtime): Command {
  const command = new Command('logout').description("remove this profile's stored token");
  command.addHelpText(
    'after',
    '\nThe token stays valid on the server: revoke it with `kforge tokens revoke ID` or in the web app.',
  );
  examples(command, [
    ['kforge logout', 'forget the token of the default profile'],
    ['kforge --profile work logout', 'forget the token of the profile "work"'],
  ]);
  return handle<[], object>(runtime, command, logout);
}

async function logout(ctx: CommandContext): Promise<ExitCode> {
  const { config, output } = ctx;
  const existed = await stat(config.credentialsFile).then(
    () => true,
    () => false,
  );
  await rm(config.credentialsFile, { force: true });
  if (config.data.profiles[config.profile]) {
    await updateProfile(config.configFile, config.profile, ({ user: _user, ...rest }) => rest);
  }
  if (output.json) {
    output.printJson({ profile: config.profile, credentials_path: config.credentialsFile, removed: existed });
  } else if (existed) {
    output.success(`Signed out of profile ${config.profile} (removed ${config.credentialsFile}).`);
  } else {
    output.info(`Profile ${config.profile} had no stored token.`);
  }
  if (config.tokenSource === 'env')
    output.warn('KFORGE_TOKEN is still set in this environment and still signs you in.');
  return ExitCode.ok;
}
