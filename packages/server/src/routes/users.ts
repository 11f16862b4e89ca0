// Superusers' list of all users (for the admin owner filter).
import { PageParams, UpdateMeRequest, User, listOf } from '@kernelforge/sdk';
import type { Hono } from 'hono';
import { listUsers, setDisplayName, toWireUser, withoutHash } from '../auth/users.js';
import type { AppContext } from '../context.js';
import { type AppEnv, currentUser, requireSuperuser, requireUser } from '../http/auth.js';
import { registerRoute } from '../http/openapi.js';
import { HttpError } from '../http/errors.js';
import { parseJson, parseQuery } from '../http/validate.js';

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

  registerRoute({
    method: 'patch',
    path: '/api/v1/users/me',
    summary: 'The signed-in user sets the name others see (empty or null: the full name, else a neutral handle)',
    auth: 'user',
    request: { body: UpdateMeRequest },
    response: User,
  });
  api.patch('/users/me', requireUser(ctx), async (c) => {
    const body = await parseJson(c, UpdateMeRequest);
    const updated = await setDisplayName(ctx.db, currentUser(c).id, body.display_name || null);
    if (!updated) throw new HttpError(404, 'User not found');
    return c.json(User.parse(toWireUser(withoutHash(updated))));
  });
}
