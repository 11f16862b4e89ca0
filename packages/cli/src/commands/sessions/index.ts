// `kforge sessions`: the group.
import { Command } from 'commander';
import type { Runtime } from '../../core/command.js';
import { sessionsCustomCommand } from './custom.js';
import { sessionsDeleteCommand } from './delete.js';
import { sessionsListCommand } from './list.js';
import { sessionsRenameCommand } from './rename.js';
import { sessionsRestoreCommand } from './restore.js';
import { sessionsShowCommand } from './show.js';
import { sessionsStartCommand } from './start.js';
import { sessionsStopCommand } from './stop.js';
import { sessionsWatchCommand } from './watch.js';

export function sessionsCommand(runtime: Runtime): Command {
  return new Command('sessions')
    .description('start, follow and manage agent sessions')
    .addCommand(sessionsStartCommand(runtime))
    .addCommand(sessionsCustomCommand(runtime))
    .addCommand(sessionsListCommand(runtime))
    .addCommand(sessionsShowCommand(runtime))
    .addCommand(sessionsWatchCommand(runtime))
    .addCommand(sessionsStopCommand(runtime))
    .addCommand(sessionsDeleteCommand(runtime))
    .addCommand(sessionsRestoreCommand(runtime))
    .addCommand(sessionsRenameCommand(runtime));
}
