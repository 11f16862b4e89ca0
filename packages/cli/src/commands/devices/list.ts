// `kforge devices`: where kernels can run, with the peaks roofline figures are measured against.
import { Command } from 'commander';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';

export function devicesCommand(runtime: Runtime): Command {
  const command = new Command('devices').description('list the devices runners offer (the --device of other commands)');
  examples(command, [
    ['kforge devices', 'ids, kinds, availability and peaks'],
    ["kforge devices --json | jq -r '.data[] | select(.available) | .id'", 'ids of available devices'],
  ]);
  return handle<[], object>(runtime, command, list);
}

async function list(ctx: CommandContext): Promise<ExitCode> {
  const client = await ctx.client({ auth: false });
  const devices = await client.devices.list();
  const { output } = ctx;
  if (output.json) {
    output.printJson(devices);
    return ExitCode.ok;
  }
  if (devices.data.length === 0) {
    output.info('No devices: no runner has registered with this server.');
    return ExitCode.ok;
  }
  output.table(devices.data, [
    { header: 'ID', value: (d) => d.id, color: (t) => output.style.bold(t) },
    { header: 'KIND', value: (d) => d.kind },
    {
      header: 'AVAILABLE',
      value: (d) => (d.available ? 'yes' : 'no'),
      color: (t, d) => (d.available ? output.style.green(t) : output.style.red(t)),
    },
    { header: 'RUNNERS', value: (d) => String(d.runners), align: 'right' },
    { header: 'GB/S', value: (d) => d.peaks.bandwidth_gbps.toFixed(1), align: 'right' },
    { header: 'GFLOP/S', value: (d) => d.peaks.fp32_gflops.toFixed(0), align: 'right' },
    { header: 'NAME', value: (d) => d.name },
  ]);
  return ExitCode.ok;
}
