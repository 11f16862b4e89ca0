// The agents and models a session may use.
import type { HttpClient, RequestOptions } from '../core/http.js';
import { listOf } from '../schemas/common.js';
import { AgentsLeaderboard, type AgentsLeaderboardParams } from '../schemas/sweep.js';
import { AgentOffer } from '../schemas/user.js';

const AgentList = listOf(AgentOffer);

export class AgentsResource {
  constructor(private readonly http: HttpClient) {}

  /** GET /api/v1/agents: the agents and models a session may use. */
  list(options?: RequestOptions) {
    return this.http.request({ ...options, method: 'GET', path: '/agents', schema: AgentList });
  }

  /** GET /api/v1/agents/leaderboard: per configuration, its best completed sweep's fast_p on a named set. */
  leaderboard(params: AgentsLeaderboardParams = {}, options?: RequestOptions) {
    return this.http.request({
      ...options,
      method: 'GET',
      path: '/agents/leaderboard',
      query: { set: params.set, device: params.device },
      schema: AgentsLeaderboard,
    });
  }
}
