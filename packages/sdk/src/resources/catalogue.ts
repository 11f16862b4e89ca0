// Site settings, problems and devices: what a user can pick from.
import { type HttpClient, path, type RequestOptions } from '../core/http.js';
import { listOf } from '../schemas/common.js';
import { Device } from '../schemas/device.js';
import { Problem } from '../schemas/problem.js';
import { AgentOffer, Settings } from '../schemas/user.js';

const ProblemList = listOf(Problem);
const DeviceList = listOf(Device);
const AgentList = listOf(AgentOffer);

export class SettingsResource {
  constructor(private readonly http: HttpClient) {}

  /** GET /api/v1/settings (answers without a token too). */
  get(options?: RequestOptions) {
    return this.http.request({ ...options, method: 'GET', path: '/settings', schema: Settings });
  }
}

export class ProblemsResource {
  constructor(private readonly http: HttpClient) {}

  /** GET /api/v1/problems */
  list(options?: RequestOptions) {
    return this.http.request({ ...options, method: 'GET', path: '/problems', schema: ProblemList });
  }

  /** GET /api/v1/problems/{name} */
  get(name: string, options?: RequestOptions) {
    return this.http.request({ ...options, method: 'GET', path: path`/problems/${name}`, schema: Problem });
  }
}

export class DevicesResource {
  constructor(private readonly http: HttpClient) {}

  /** GET /api/v1/devices */
  list(options?: RequestOptions) {
    return this.http.request({ ...options, method: 'GET', path: '/devices', schema: DeviceList });
  }
}

export class AgentsResource {
  constructor(private readonly http: HttpClient) {}

  /** GET /api/v1/agents: the agents and models a session may use. */
  list(options?: RequestOptions) {
    return this.http.request({ ...options, method: 'GET', path: '/agents', schema: AgentList });
  }
}
