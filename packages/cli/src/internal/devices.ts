// The device used when --device is not given: the server's cpu device.
import type { KernelforgeClient } from '@kernelforge/sdk';
import { CliError } from '../core/errors.js';

export async function defaultDevice(client: KernelforgeClient): Promise<string> {
  const { data } = await client.devices.list();
  const cpus = data.filter((device) => device.kind === 'cpu');
  const device = cpus.find((d) => d.available) ?? cpus[0];
  if (!device) {
    throw new CliError(
      'This server offers no cpu device.',
      undefined,
      'Pick one with --device (see `kforge devices`).',
    );
  }
  return device.id;
}
