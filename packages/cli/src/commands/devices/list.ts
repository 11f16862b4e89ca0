// `kforge devices`: where kernels can run, with the peaks roofline figures are measured against and how they were measured.
import { type Device, peakQuietness } from '@kernelforge/sdk';
import { Command } from 'commander';
import { type Runtime, examples, handle } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';

export function devicesCommand(runtime: Runtime): Command {
  const command = new Command('devices').description('list the devices runners offer (the --device of other commands)');
  examples(command, [
    ['kforge devices', 'ids, kinds, availability, ISA and peaks, then how each peak was measured'],
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
    {
      header: 'FMA PEAK',
      value: (d) => (d.peaks.theoretical_fp32_gflops ? d.peaks.theoretical_fp32_gflops.toFixed(0) : '-'),
      align: 'right',
    },
    { header: 'ISA', value: (d) => d.cpu?.vector_isa ?? '-' },
    { header: 'NAME', value: (d) => d.name },
  ]);
  for (const d of devices.data) {
    const lines = howMeasured(d);
    if (lines.length === 0) continue;
    output.line();
    output.line(output.style.bold(`${d.id} (${d.name})`));
    for (const l of lines) output.line(`  ${l}`);
  }
  return ExitCode.ok;
}

const kib = (bytes: number) =>
  bytes >= 2 ** 20 ? `${+(bytes / 2 ** 20).toFixed(1)} MiB` : `${Math.round(bytes / 1024)} KiB`;

/** What the device is and how its peaks were found, in plain lines (none for a device that reports nothing more). */
export function howMeasured(d: Device): string[] {
  const out: string[] = [];
  const cpu = d.cpu;
  if (cpu) {
    const caches = cpu.caches
      ? `; caches per core: L1d ${kib(cpu.caches.l1d_bytes)}, L2 ${kib(cpu.caches.l2_bytes)}, L3 ${kib(cpu.caches.l3_bytes)}`
      : '';
    out.push(
      `ISA: ${cpu.vector_isa} (${cpu.isa.join(' ') || 'baseline'}), ${cpu.vector_registers} vector registers of ${cpu.vector_bits} bits${caches}`,
    );
  }
  const p = d.peaks;
  const m = p.measurement;
  if (p.source === 'table') out.push('peaks: from the datasheet table for this model (not measured)');
  if (p.source === 'unknown') out.push('peaks: unknown (not measured)');
  if (m) {
    const same = [
      m.triad_gbps !== undefined ? `plain triad ${m.triad_gbps.toFixed(1)} GB/s` : '',
      m.read_gbps !== undefined ? `read-only ${m.read_gbps.toFixed(1)} GB/s` : '',
    ].filter(Boolean);
    out.push(
      `bandwidth ${p.bandwidth_gbps.toFixed(1)} GB/s: ${m.bandwidth_method}${same.length ? ` (same run: ${same.join(', ')})` : ''}`,
    );
    out.push(`fp32 ${p.fp32_gflops.toFixed(1)} GFLOP/s: ${m.flops_method}`);
  }
  if (p.theoretical_fp32_gflops) {
    const share =
      p.fp32_gflops > 0 ? `; measured = ${Math.round((100 * p.fp32_gflops) / p.theoretical_fp32_gflops)}% of it` : '';
    out.push(
      `theoretical FMA peak ${p.theoretical_fp32_gflops.toFixed(1)} GFLOP/s = ${p.theoretical_basis ?? 'cores x clock x flops per cycle'}${share}`,
    );
  }
  if (m) {
    const when = m.measured_at.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
    const load = m.load_average !== undefined ? ` at load average ${m.load_average}` : '';
    const again = m.remeasurements
      ? `; measured again ${m.remeasurements} time(s) since the runner started (a peak is only ever raised)`
      : '';
    out.push(`measured ${when}${load} with the ${m.code_path} code path${again}`);
    const quiet = peakQuietness(m);
    if (quiet) out.push(quiet.replace(/\.$/, ''));
  }
  return out;
}
