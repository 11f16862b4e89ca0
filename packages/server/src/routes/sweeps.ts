// Sweeps and the agents leaderboard (issue 24): thin handlers over services/sweeps.ts.
import {
  AgentsLeaderboard,
  AgentsLeaderboardParams,
  CreateSweepRequest,
  ListSweepsParams,
  listOf,
  Message,
  Sweep,
  SweepSummary,
  Text,
} from '@kernelforge/sdk';
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { type AppEnv, currentUser, userGuards } from '../http/auth.js';
import { routeTable } from '../http/route.js';
import { agentsLeaderboard, createSweep, deleteSweep, getSweep, listSweeps, stopSweep } from '../services/sweeps.js';

const SweepList = listOf(SweepSummary);
const IdParam = z.object({ id: Text.max(100) });
export const SWEEP_PAGE_SIZE = 50;

export function mountSweepRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  const route = routeTable(api, '/api/v1', userGuards(ctx));
  const tags = ['sweep'];
  const one = { tags, auth: 'user', params: IdParam, errors: [404] } as const;

  route(
    {
      method: 'post',
      path: '/sweep',
      summary: 'Start a sweep: one agent session per problem of a list or a named set',
      tags,
      auth: 'user',
      body: CreateSweepRequest,
      response: Sweep,
      status: 201,
      errors: [429],
    },
    async (c, { body }) => createSweep(ctx, currentUser(c), body),
  );

  route(
    {
      method: 'get',
      path: '/sweep',
      summary: "The caller's sweeps (every sweep for a superuser), newest first",
      tags,
      auth: 'user',
      query: ListSweepsParams,
      response: SweepList,
    },
    async (c, { query: q }) =>
      listSweeps(ctx, currentUser(c), { limit: q.limit ?? SWEEP_PAGE_SIZE, offset: q.offset ?? 0 }),
  );

  route(
    {
      ...one,
      method: 'get',
      path: '/sweep/{id}',
      summary: 'A sweep: its status, per-problem results and fast_p',
      response: Sweep,
    },
    async (c, { params }) => getSweep(ctx, currentUser(c), params.id),
  );

  route(
    {
      ...one,
      method: 'post',
      path: '/sweep/{id}/stop',
      summary: 'Stop every session of a sweep; problems already scored stay',
      response: Sweep,
    },
    async (c, { params }) => stopSweep(ctx, currentUser(c), params.id),
  );

  route(
    {
      ...one,
      method: 'delete',
      path: '/sweep/{id}',
      summary: 'Stop and delete a sweep and its sessions',
      response: Message,
    },
    async (c, { params }) => {
      await deleteSweep(ctx, currentUser(c), params.id);
      return { message: 'Sweep deleted' };
    },
  );

  route(
    {
      method: 'get',
      path: '/agents/leaderboard',
      summary: "Agents on a named set: each configuration's best completed sweep by fast_p",
      tags: ['agents'],
      auth: 'user',
      query: AgentsLeaderboardParams,
      response: AgentsLeaderboard,
    },
    async (_c, { query: q }) => agentsLeaderboard(ctx, { set: q.set, device: q.device }),
  );
}
