// Picks a device from GET /api/v1/devices, saying which have a runner right now, its ISA and peaks, and how the
// peaks were measured.
import { type Device, peakQuietness } from '@kernelforge/sdk';
import { SelectField } from './fields';

const fixed = (x: number, d = 0) => x.toFixed(d);

/** `refusal`: why the device cannot run the chosen problem, said in place of its availability. */
export function deviceLabel(device: Device, refusal?: string | null): string {
  const isa = device.cpu ? `, ${device.cpu.vector_isa}` : '';
  const p = device.peaks;
  const peaks = p.source === 'unknown' ? '' : `, ${fixed(p.bandwidth_gbps, 1)} GB/s, ${fixed(p.fp32_gflops)} GFLOP/s`;
  const state = refusal ? `cannot run this problem: ${refusal}` : device.available ? 'available' : 'no runner';
  return `${device.name} (${device.id}${isa}${peaks}) — ${state}`;
}

const kib = (bytes: number) =>
  bytes >= 2 ** 20 ? `${+(bytes / 2 ** 20).toFixed(1)} MiB` : `${Math.round(bytes / 1024)} KiB`;

/** The device's ISA and how each of its peaks was found, one line each. */
export function devicePeakLines(device: Device): string[] {
  const out: string[] = [];
  const cpu = device.cpu;
  if (cpu) {
    const caches = cpu.caches
      ? `; L1d ${kib(cpu.caches.l1d_bytes)}, L2 ${kib(cpu.caches.l2_bytes)}, L3 ${kib(cpu.caches.l3_bytes)} per core`
      : '';
    out.push(
      `ISA: ${cpu.vector_isa} (${cpu.isa.join(' ') || 'baseline'}), ${cpu.vector_registers} vector registers of ${cpu.vector_bits} bits${caches}`,
    );
  }
  const p = device.peaks;
  const m = p.measurement;
  if (p.source === 'table') out.push('Peaks from the datasheet table for this model (not measured).');
  if (m) {
    out.push(`Bandwidth ${fixed(p.bandwidth_gbps, 1)} GB/s: ${m.bandwidth_method}.`);
    out.push(`fp32 ${fixed(p.fp32_gflops, 1)} GFLOP/s: ${m.flops_method}.`);
  }
  if (p.theoretical_fp32_gflops)
    out.push(
      `Theoretical FMA peak ${fixed(p.theoretical_fp32_gflops, 1)} GFLOP/s = ${p.theoretical_basis ?? 'cores x clock x flops per cycle'}.`,
    );
  if (m) {
    const load = m.load_average !== undefined ? ` at load average ${m.load_average}` : '';
    out.push(
      `Measured ${m.measured_at.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}${load} (${m.code_path} code path).`,
    );
    const quiet = peakQuietness(m);
    if (quiet) out.push(quiet);
  }
  return out;
}

function DevicePeaks({ device }: { device: Device }) {
  const lines = devicePeakLines(device);
  if (lines.length === 0) return null;
  return (
    <details className="mt-1 text-xs text-slate-500 dark:text-slate-400" data-testid="device-peaks">
      <summary className="cursor-pointer">How this device's peaks were measured</summary>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {lines.map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
    </details>
  );
}

export function DeviceSelect({
  devices,
  value,
  onChange,
  label = 'Device',
  allowAny,
  refusal,
}: {
  devices: readonly Device[];
  value: string;
  onChange: (id: string) => void;
  label?: string;
  allowAny?: string;
  /** Why a device cannot run the chosen problem (it is then shown disabled, with the reason), or null. */
  refusal?: (device: Device) => string | null;
}) {
  const selected = allowAny ? undefined : devices.find((d) => d.id === value);
  const refused = devices.flatMap((d) => {
    const reason = refusal?.(d);
    return reason ? [{ id: d.id, reason }] : [];
  });
  return (
    <>
      <SelectField
        label={label}
        name="device"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        required={!allowAny}
      >
        {allowAny ? <option value="">{allowAny}</option> : null}
        {/* A filter from the address names its device before the list has loaded, or one no runner serves now
            (older results): the select still says what is filtered on, never "All devices" while filtering. */}
        {allowAny && value && !devices.some((d) => d.id === value) ? <option value={value}>{value}</option> : null}
        {!allowAny && devices.length === 0 ? <option value="">No device offered</option> : null}
        {devices.map((device) => (
          <option
            key={device.id}
            value={device.id}
            disabled={!allowAny && (!device.available || refused.some((r) => r.id === device.id))}
          >
            {allowAny ? `${device.name} (${device.id})` : deviceLabel(device, refusal?.(device))}
          </option>
        ))}
      </SelectField>
      {refused.length ? (
        <p className="mt-1 text-xs text-amber-700 dark:text-amber-300" data-testid="devices-refused">
          Not offered for this problem: {refused.map((r) => `${r.id} (${r.reason})`).join('; ')}
        </p>
      ) : null}
      {selected ? (
        // The select cuts a long label to its width (a phone shows "cpu-x86_64-avx512-intel-xeon-f6m"): the chosen
        // device's whole id, wrapped, beneath it.
        <p className="mt-1 text-xs break-all text-slate-600 dark:text-slate-400" data-testid="device-chosen">
          {selected.id}
        </p>
      ) : null}
      {selected ? <DevicePeaks device={selected} /> : null}
    </>
  );
}
