// Agents, problems (public views of the catalogue, never ranked sizes) and devices (from the registered runners and this machine).
import { AgentOffer, Device, Problem, listOf, Text } from '@kernelforge/sdk';
import type { Hono } from 'hono';
import { z } from 'zod';
import { agentsConfigFrom, listAgents } from '../agents/index.js';
import type { AppContext } from '../context.js';
import { type AppEnv, userGuards } from '../http/auth.js';
import { routeTable } from '../http/route.js';

const ProblemList = listOf(Problem);
const DeviceList = listOf(Device);
const AgentList = listOf(AgentOffer);
const NameParam = z.object({ name: Text.max(200) });

export function mountCatalogueRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  const route = routeTable(api, '/api/v1', userGuards(ctx));

  route(
    {
      method: 'get',
      path: '/problems',
      summary: 'The problem catalogue',
      tags: ['problems'],
      auth: 'user',
      response: ProblemList,
    },
    async () => {
      const data = await ctx.catalogue.list();
      return { data, count: data.length };
    },
  );

  route(
    {
      method: 'get',
      path: '/problems/{name}',
      summary: 'One problem with its reference source',
      tags: ['problems'],
      auth: 'user',
      params: NameParam,
      response: Problem,
      errors: [404],
    },
    async (_c, { params }) => ctx.catalogue.require(params.name),
  );

  route(
    {
      method: 'get',
      path: '/devices',
      summary: 'Devices runners offer, with peaks and availability',
      tags: ['devices'],
      auth: 'user',
      response: DeviceList,
    },
    async () => {
      const data = await ctx.devices.list();
      return { data, count: data.length };
    },
  );

  route(
    {
      method: 'get',
      path: '/agents',
      summary: 'Agents and models this server offers (the tuner always; LLM providers when configured)',
      tags: ['agents'],
      auth: 'user',
      response: AgentList,
    },
    () => {
      const data = listAgents(agentsConfigFrom(ctx.config));
      return { data, count: data.length };
    },
  );
}
