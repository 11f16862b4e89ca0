// Picks a device from GET /api/v1/devices, saying which have a runner right now.
import type { Device } from '@kernelforge/sdk';
import { SelectField } from './fields';

export function deviceLabel(device: Device): string {
  return `${device.name} (${device.id}) — ${device.available ? 'available' : 'no runner'}`;
}

export function DeviceSelect({
  devices,
  value,
  onChange,
  label = 'Device',
  allowAny,
}: {
  devices: readonly Device[];
  value: string;
  onChange: (id: string) => void;
  label?: string;
  allowAny?: string;
}) {
  return (
    <SelectField
      label={label}
      name="device"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      required={!allowAny}
    >
      {allowAny ? <option value="">{allowAny}</option> : null}
      {!allowAny && devices.length === 0 ? <option value="">No device offered</option> : null}
      {devices.map((device) => (
        <option key={device.id} value={device.id} disabled={!allowAny && !device.available}>
          {allowAny ? `${device.name} (${device.id})` : deviceLabel(device)}
        </option>
      ))}
    </SelectField>
  );
}
