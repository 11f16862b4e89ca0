// `kforge sweep`: the group.
import { Command } from 'commander';
import type { Runtime } from '../../core/command.js';
import { sweepCompareCommand } from './compare.js';
import { sweepListCommand } from './list.js';
import { sweepShowCommand } from './show.js';
import { sweepStartCommand } from './start.js';

export function sweepCommand(runtime: Runtime): Command {
  return new Command('sweep')
    .description('run an agent over a problem set and score it by fast_p (start, show, compare, list)')
    .addCommand(sweepStartCommand(runtime))
    .addCommand(sweepShowCommand(runtime))
    .addCommand(sweepCompareCommand(runtime))
    .addCommand(sweepListCommand(runtime));
}
