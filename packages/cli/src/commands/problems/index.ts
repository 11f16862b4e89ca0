// `kforge problems`: the group.
import { Command } from 'commander';
import type { Runtime } from '../../core/command.js';
import { problemsListCommand } from './list.js';
import { problemsShowCommand } from './show.js';

export function problemsCommand(runtime: Runtime): Command {
  return new Command('problems')
    .description('browse the problem catalogue')
    .addCommand(problemsListCommand(runtime))
    .addCommand(problemsShowCommand(runtime));
}
