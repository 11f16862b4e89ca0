// Users: superusers list and search them, make or unmake superusers and deactivate accounts; everyone sets their own
// display name and password, changes their email address and deletes their account (services/account.ts).
import {
  ChangeEmailRequest,
  ConfirmEmailRequest,
  DeleteMeRequest,
  Message,
  NoticeList,
  SetPasswordRequest,
  Text,
  UpdateMeRequest,
  UpdateUserRequest,
  User,
  UserListParams,
  listOf,
} from '@kernelforge/sdk';
import { z } from 'zod';
import type { Context, Hono } from 'hono';
import { findUserById, listUsers, toWireUser, updateOwnSettings, updateUserFlags, withoutHash } from '../auth/users.js';
import type { AppContext } from '../context.js';
import { type AppEnv, currentUser, userGuards } from '../http/auth.js';
import { HttpError, ValidationError } from '../http/errors.js';
import { routeTable } from '../http/route.js';
import { noticesFor } from '../services/notices.js';
import { createSigninThrottle } from '../auth/throttle.js';
import { clientIp } from '../http/rate-limit.js';
import { MailDeliveryError } from '../mail/mailer.js';
import { confirmEmailChange, deleteAccount, requestEmailChange, setPassword } from '../services/account.js';

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

  // Guesses of the current password are throttled as sign-ins are (auth/throttle.ts).
  const guesses = createSigninThrottle(ctx.config.rateLimits.signinPerMinute);
  // What would let a holder keep the account (a password, an address, deletion) needs a signed-in session: an API
  // token, whatever its scopes, is refused.
  const caller = (c: Context<AppEnv>) => {
    if (c.get('authKind') === 'api_token')
      throw new HttpError(
        403,
        "API tokens cannot change an account's password, email address or existence: sign in and use the Account page",
      );
    return {
      userId: currentUser(c).id,
      address: clientIp(c, ctx.config.trustProxy),
      signedIn: c.get('signedIn') ?? null,
    };
  };

  route(
    {
      method: 'put',
      path: '/users/me/password',
      summary:
        'Set a password (an account made by mail link or Google has none) or change it; one that has a password gives it as current_password, unless signed in by an emailed link in the last 15 minutes (a forgotten password)',
      auth: 'user',
      body: SetPasswordRequest,
      response: Message,
      errors: [400, 403, 422, 429],
    },
    async (c, { body }) => setPassword(ctx, guesses, caller(c), body),
  );

  route(
    {
      method: 'post',
      path: '/users/me/email',
      summary:
        'Mail a confirmation link to a new address; the address changes when the link is used (a password account gives current_password)',
      auth: 'user',
      body: ChangeEmailRequest,
      response: Message,
      errors: [400, 403, 422, 429, 502],
    },
    async (c, { body }) => {
      try {
        return await requestEmailChange(ctx, guesses, caller(c), body);
      } catch (err) {
        // A refusing SMTP server: 502, so the caller knows the link never left (as routes/auth.ts answers).
        if (err instanceof MailDeliveryError) throw new HttpError(502, err.message);
        throw err;
      }
    },
  );

  route(
    {
      method: 'post',
      path: '/users/me/email/confirm',
      summary:
        "Use the mailed confirmation link's token: the signed-in user's address becomes the new one (409 when another account has it)",
      auth: 'user',
      body: ConfirmEmailRequest,
      response: User,
      errors: [400, 403, 409],
    },
    async (c, { body }) => {
      await confirmEmailChange(ctx, caller(c).userId, body.token);
      const updated = await findUserById(ctx.db, currentUser(c).id);
      if (!updated) throw new HttpError(404, 'User not found');
      return toWireUser(updated);
    },
  );

  route(
    {
      method: 'delete',
      path: '/users/me',
      summary:
        'Delete the signed-in account and its sessions, submissions and tokens at once (confirm: the email or "delete"; a password account gives current_password)',
      auth: 'user',
      body: DeleteMeRequest,
      response: null,
      status: 204,
      errors: [400, 403, 409, 422, 429],
    },
    async (c, { body }) => {
      await deleteAccount(ctx, guesses, caller(c), body);
      return undefined;
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
