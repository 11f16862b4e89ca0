// `kforge attempts`: the group.
import { Command } from 'commander';
import type { Runtime } from '../../core/command.js';
import { attemptsShowCommand } from './show.js';

export function attemptsCommand(runtime: Runtime): Command {
  return new Command('attempts').description("read a session's attempts").addCommand(attemptsShowCommand(runtime));
}
