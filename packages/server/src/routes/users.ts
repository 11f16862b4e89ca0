// Superusers' list of all users (for the admin owner filter).
import { PageParams, User, listOf } from '@kernelforge/sdk';
import type { Hono } from 'hono';
import { listUsers, toWireUser, withoutHash } from '../auth/users.js';
import type { AppContext } from '../context.js';
import { type AppEnv, requireSuperuser } from '../http/auth.js';
import { registerRoute } from '../http/openapi.js';
import { parseQuery } from '../http/validate.js';

const UserList = listOf(User);

export function mountUserRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  registerRoute({
    method: 'get',
    path: '/api/v1/users',
    summary: 'Every user (superusers)',
    auth: 'superuser',
    request: { query: PageParams },
    response: UserList,
  });
  api.get('/users', requireSuperuser(ctx), async (c) => {
    const q = parseQuery(c, PageParams);
    const { rows, count } = await listUsers(ctx.db, q.limit ?? 100, q.offset ?? 0);
    return c.json(UserList.parse({ data: rows.map((u) => toWireUser(withoutHash(u))), count }));
  });
}
