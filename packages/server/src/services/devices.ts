// The device registry: devices of this machine's in-process runner plus those registered runners announced.
import { discoverDevices } from '@kernelforge/runner';
import type { Device } from '@kernelforge/sdk';
import type { Config } from '../config.js';
import { ensurePrivateDir } from '../db/private-dir.js';
import type { Sql } from '../db/sql.js';

interface RunnerRow {
  id: string;
  devices: Device[];
  fresh: boolean;
}

export class DeviceRegistry {
  private local: Promise<Device[]> | null = null;

  constructor(
    private readonly sql: Sql,
    private readonly config: Pick<Config, 'localRunner' | 'runner'>,
  ) {}

  /** What this machine can evaluate on, discovered once (the cpu peaks are measured on first use). */
  localDevices(): Promise<Device[]> {
    if (!this.config.localRunner) return Promise.resolve([]);
    // discoverDevices measures the cpu's peaks once (a few hundred ms), so it runs on first need only.
    this.local ??= Promise.resolve()
      .then(() => {
        ensurePrivateDir(this.config.runner.workDir);
        return discoverDevices({ workDir: this.config.runner.workDir, python: this.config.runner.python });
      })
      .catch(() => []);
    return this.local;
  }

  /**
   * Every known device: a device is available while some runner serving it was seen recently.
   * This process's local devices count even before its runner row is written.
   */
  async list(): Promise<Device[]> {
    const local = await this.localDevices();
    const rows = await this.sql.query<RunnerRow>(
      `SELECT id, devices, last_seen_at > now() - make_interval(secs => $1) AS fresh FROM runners
       WHERE last_seen_at > now() - interval '7 days' ORDER BY created_at`,
      // Dead runners (silent for KFORGE_RUNNER_DEAD_HEARTBEATS heartbeats) serve nothing, whatever the stale window.
      [Math.min(this.config.runner.staleSeconds, this.config.runner.deadSeconds)],
    );
    const byId = new Map<string, Device>();
    for (const d of local) byId.set(d.id, { ...d, available: true, runners: 0 });
    for (const row of rows) {
      for (const d of row.devices) {
        const known = byId.get(d.id);
        if (!known) byId.set(d.id, { ...d, available: row.fresh, runners: row.fresh ? 1 : 0 });
        else if (row.fresh) byId.set(d.id, { ...known, available: true, runners: known.runners + 1 });
      }
    }
    const localIds = new Set(local.map((d) => d.id));
    // A local device whose runner row is not written yet still has this process serving it.
    return [...byId.values()].map((d) => (localIds.has(d.id) && d.runners === 0 ? { ...d, runners: 1 } : d));
  }

  async find(id: string): Promise<Device | undefined> {
    return (await this.list()).find((d) => d.id === id);
  }

  /**
   * The device an id names: the one with that id, else the one device whose id extends it (`cpu-x86_64` names
   * `cpu-x86_64-avx512-amd-epyc-f26m2` where that is the only x86-64 cpu device: the generic id cpu devices had
   * before they were named by ISA class and model keeps working). `ambiguous` lists the devices a generic id could
   * mean when there are several.
   */
  async resolve(id: string): Promise<{ device?: Device; ambiguous?: Device[]; devices: Device[] }> {
    const devices = await this.list();
    const exact = devices.find((d) => d.id === id);
    if (exact) return { device: exact, devices };
    const extending = devices.filter((d) => d.id.startsWith(`${id}-`));
    if (extending.length === 1) return { device: extending[0] as Device, devices };
    return extending.length > 1 ? { ambiguous: extending, devices } : { devices };
  }
}
