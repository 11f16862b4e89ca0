// Devices the runners offer, with their peaks and availability.
import type { HttpClient, RequestOptions } from '../core/http.js';
import { listOf } from '../schemas/common.js';
import { Device } from '../schemas/device.js';

const DeviceList = listOf(Device);

export class DevicesResource {
  constructor(private readonly http: HttpClient) {}

  /** GET /api/v1/devices */
  list(options?: RequestOptions) {
    return this.http.request({ ...options, method: 'GET', path: '/devices', schema: DeviceList });
  }
}
