// `kforge tokens`: the group.
import { Command } from 'commander';
import type { Runtime } from '../../core/command.js';
import { tokensCreateCommand } from './create.js';
import { tokensListCommand } from './list.js';
import { tokensRevokeCommand } from './revoke.js';

export function tokensCommand(runtime: Runtime): Command {
  return new Command('tokens')
    .description('manage your API tokens')
    .addCommand(tokensListCommand(runtime))
    .addCommand(tokensCreateCommand(runtime))
    .addCommand(tokensRevokeCommand(runtime));
}
