// Superusers' list of all users (for the admin owner filter).
import { PageParams, UpdateMeRequest, User, listOf } from '@kernelforge/sdk';
import type { Hono } from 'hono';
import { listUsers, setDisplayName, toWireUser, withoutHash } from '../auth/users.js';
import type { AppContext } from '../context.js';
import { type AppEnv, currentUser, userGuards } from '../http/auth.js';
import { HttpError } from '../http/errors.js';
import { routeTable } from '../http/route.js';

const UserList = listOf(User);

export function mountUserRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  const route = routeTable(api, '/api/v1', userGuards(ctx));
  route(
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

  route(
    {
      method: 'patch',
      path: '/users/me',
      summary: 'The signed-in user sets the name others see (empty or null: the full name, else a neutral handle)',
      auth: 'user',
      body: UpdateMeRequest,
      response: User,
    },
    async (c, { body }) => {
      const updated = await setDisplayName(ctx.db, currentUser(c).id, body.display_name || null);
      if (!updated) throw new HttpError(404, 'User not found');
      return toWireUser(withoutHash(updated));
    },
  );
}
