// Superusers' list of all users (for the admin owner filter).
import { PageParams, User, listOf } from '@kernelforge/sdk';
import type { Hono } from 'hono';
import { listUsers, toWireUser, withoutHash } from '../auth/users.js';
import type { AppContext } from '../context.js';
import { type AppEnv, userGuards } from '../http/auth.js';
import { routeTable } from '../http/route.js';

const UserList = listOf(User);

export function mountUserRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  routeTable(
    api,
    '/api/v1',
    userGuards(ctx),
  )(
    {
      method: 'get',
      path: '/users',
      summary: 'Every user (superusers)',
      auth: 'superuser',
      query: PageParams,
      response: UserList,
    },
    async (_c, { query: q }) => {
      const { rows, count } = await listUsers(ctx.db, q.limit ?? 100, q.offset ?? 0);
      return { data: rows.map((u) => toWireUser(withoutHash(u))), count };
    },
  );
}
