// Agents, problems (public views of the catalogue, never ranked sizes) and devices (from the registered runners and this machine).
import { AgentOffer, Device, Problem, listOf, Text } from '@kernelforge/sdk';
import type { Hono } from 'hono';
import { z } from 'zod';
import { agentsConfigFrom, listAgents } from '../agents/index.js';
import type { AppContext } from '../context.js';
import { type AppEnv, requireUser } from '../http/auth.js';
import { registerRoute } from '../http/openapi.js';
import { parseParams } from '../http/validate.js';

const ProblemList = listOf(Problem);
const DeviceList = listOf(Device);
const AgentList = listOf(AgentOffer);
const NameParam = z.object({ name: Text.max(200) });

export function mountCatalogueRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  const auth = requireUser(ctx);

  registerRoute({
    method: 'get',
    path: '/api/v1/problems',
    summary: 'The problem catalogue',
    tags: ['problems'],
    auth: 'user',
    response: ProblemList,
  });
  api.get('/problems', auth, async (c) => {
    const data = await ctx.catalogue.list();
    return c.json(ProblemList.parse({ data, count: data.length }));
  });

  registerRoute({
    method: 'get',
    path: '/api/v1/problems/{name}',
    summary: 'One problem with its reference source',
    tags: ['problems'],
    auth: 'user',
    request: { params: NameParam },
    response: Problem,
    errors: [404],
  });
  api.get('/problems/:name', auth, async (c) => {
    const { name } = parseParams(c, NameParam);
    return c.json(Problem.parse(await ctx.catalogue.require(name)));
  });

  registerRoute({
    method: 'get',
    path: '/api/v1/devices',
    summary: 'Devices runners offer, with peaks and availability',
    tags: ['devices'],
    auth: 'user',
    response: DeviceList,
  });
  api.get('/devices', auth, async (c) => {
    const data = await ctx.devices.list();
    return c.json(DeviceList.parse({ data, count: data.length }));
  });

  registerRoute({
    method: 'get',
    path: '/api/v1/agents',
    summary: 'Agents and models this server offers (the tuner always; LLM providers when configured)',
    tags: ['agents'],
    auth: 'user',
    response: AgentList,
  });
  api.get('/agents', auth, (c) => {
    const data = listAgents(agentsConfigFrom(ctx.config));
    return c.json(AgentList.parse({ data, count: data.length }));
  });
}
