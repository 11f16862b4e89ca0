// The agents and models a session may use.
import type { HttpClient, RequestOptions } from '../core/http.js';
import { listOf } from '../schemas/common.js';
import { AgentOffer } from '../schemas/user.js';

const AgentList = listOf(AgentOffer);

export class AgentsResource {
  constructor(private readonly http: HttpClient) {}

  /** GET /api/v1/agents: the agents and models a session may use. */
  list(options?: RequestOptions) {
    return this.http.request({ ...options, method: 'GET', path: '/agents', schema: AgentList });
  }
}
