// Users: superusers list and search them, make or unmake superusers and deactivate accounts; everyone sets their own
// display name.
import { NoticeList, Text, UpdateMeRequest, UpdateUserRequest, User, UserListParams, listOf } from '@kernelforge/sdk';
import { z } from 'zod';
import type { Hono } from 'hono';
import { listUsers, toWireUser, updateOwnSettings, updateUserFlags, withoutHash } from '../auth/users.js';
import type { AppContext } from '../context.js';
import { type AppEnv, currentUser, userGuards } from '../http/auth.js';
import { HttpError, ValidationError } from '../http/errors.js';
import { routeTable } from '../http/route.js';
import { noticesFor } from '../services/notices.js';

const UserList = listOf(User);

export function mountUserRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  const route = routeTable(api, '/api/v1', userGuards(ctx));
  route(
    {
      method: 'get',
      path: '/users',
      summary: 'Every user, or those whose email or name holds q (superusers)',
      auth: 'superuser',
      query: UserListParams,
      response: UserList,
    },
    async (_c, { query: q }) => {
      const { rows, count } = await listUsers(ctx.db, q.limit ?? 100, q.offset ?? 0, q.q || undefined);
      return { data: rows.map((u) => toWireUser(withoutHash(u))), count };
    },
  );

  route(
    {
      method: 'get',
      path: '/users/me/notices',
      summary: "What happened to the caller's results in the last 30 days: finished, flagged, approved, rejected",
      auth: 'user',
      response: NoticeList,
    },
    async (c) => noticesFor(ctx, currentUser(c)),
  );

  route(
    {
      method: 'patch',
      path: '/users/me',
      summary:
        "The signed-in user's own settings: the name others see (empty or null: the full name, else their handle of words) and whether results are mailed",
      auth: 'user',
      body: UpdateMeRequest,
      response: User,
    },
    async (c, { body }) => {
      const updated = await updateOwnSettings(ctx.db, currentUser(c).id, {
        ...(body.display_name !== undefined ? { displayName: body.display_name || null } : {}),
        mailResults: body.mail_results,
      });
      if (!updated) throw new HttpError(404, 'User not found');
      return toWireUser(withoutHash(updated));
    },
  );

  // After /users/me, which this pattern would otherwise take.
  route(
    {
      method: 'patch',
      path: '/users/{id}',
      summary: "Make or unmake a superuser, deactivate or reactivate an account (superusers; never one's own)",
      auth: 'superuser',
      params: z.object({ id: Text.max(100) }),
      body: UpdateUserRequest,
      response: User,
    },
    async (c, { params, body }) => {
      if (body.is_superuser === undefined && body.is_active === undefined)
        throw new ValidationError([{ loc: ['body'], msg: 'Give is_superuser or is_active', type: 'value_error' }]);
      if (params.id === currentUser(c).id && (body.is_superuser === false || body.is_active === false))
        throw new ValidationError([
          {
            loc: ['path', 'id'],
            msg: 'You cannot take your own superuser rights or deactivate yourself; ask another superuser',
            type: 'value_error',
          },
        ]);
      const updated = await updateUserFlags(ctx.db, params.id, body);
      if (!updated) throw new HttpError(404, 'User not found');
      return toWireUser(withoutHash(updated));
    },
  );
}
