// Sweeps and the agents leaderboard (issue 24): thin handlers over domain/sweeps/service.ts.
import {
  AgentsLeaderboard,
  AgentsLeaderboardParams,
  CreateSweepRequest,
  ListSweepsParams,
  SaveSweepSetRequest,
  listOf,
  Message,
  Sweep,
  SweepSet,
  SweepSummary,
  Text,
} from '@kernelforge/sdk';
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { type AppEnv, currentUser, userGuards } from '../http/auth.js';
import { routeTable } from '../http/route.js';
import {
  agentsLeaderboard,
  createSweep,
  deleteSweep,
  deleteSweepSet,
  getSweep,
  listSweepSets,
  listSweeps,
  saveSweepSet,
  stopSweep,
} from '../domain/sweeps/service.js';

const SweepList = listOf(SweepSummary);
const SweepSetList = listOf(SweepSet);
// The name's form is checked by the service, after the body is read (answering a path error before reading a large
// body would leave it on a kept-alive connection).
const SetParam = z.object({ name: Text.max(100) });
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

  route(
    {
      method: 'get',
      path: '/sweep-set',
      summary: 'The named problem sets (built in and saved by admins) with their problems',
      tags,
      auth: 'user',
      response: SweepSetList,
    },
    async () => {
      const data = await listSweepSets(ctx);
      return { data, count: data.length };
    },
  );

  route(
    {
      method: 'put',
      path: '/sweep-set/{name}',
      summary: 'Save (or replace) a named problem set (superusers)',
      tags,
      auth: 'superuser',
      params: SetParam,
      body: SaveSweepSetRequest,
      response: SweepSet,
    },
    async (c, { params, body }) => saveSweepSet(ctx, currentUser(c), params.name, body),
  );

  route(
    {
      method: 'delete',
      path: '/sweep-set/{name}',
      summary: 'Delete a saved problem set (superusers); sweeps made from it keep their problems',
      tags,
      auth: 'superuser',
      params: SetParam,
      response: Message,
      errors: [404],
    },
    async (_c, { params }) => {
      await deleteSweepSet(ctx, params.name);
      return { message: 'Problem set deleted' };
    },
  );
}
