// API tokens of the signed-in user: list, create (the token is in this one response), revoke.
import { ApiToken, CreateApiTokenRequest, CreatedApiToken, Message, listOf, Text } from '@kernelforge/sdk';
import type { Hono } from 'hono';
import { z } from 'zod';
import { createApiToken, listApiTokens, revokeApiToken } from '../auth/api-tokens.js';
import type { AppContext } from '../context.js';
import { type AppEnv, currentUser, userGuards } from '../http/auth.js';
import { HttpError, notFound } from '../http/errors.js';
import { routeTable } from '../http/route.js';

const TokenList = listOf(ApiToken);
const TokenId = z.object({ id: Text.max(100) });

/** Mounted on the /api/v1 sub-app: paths here are relative to it. */
export function mountTokenRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  const route = routeTable(api, '/api/v1', userGuards(ctx));

  route(
    {
      method: 'get',
      path: '/tokens',
      summary: "The signed-in user's live API tokens",
      auth: 'user',
      response: TokenList,
    },
    async (c) => {
      const data = await listApiTokens(ctx.db, currentUser(c).id);
      return { data, count: data.length };
    },
  );

  route(
    {
      method: 'post',
      path: '/tokens',
      summary:
        'Create an API token (scopes: read, submit, sessions, tokens; default all); the token appears in this response only',
      auth: 'user',
      body: CreateApiTokenRequest,
      response: CreatedApiToken,
      status: 201,
      errors: [403],
    },
    async (c, { body }) => {
      // A token never mints a token that can do more than itself.
      const own = c.get('scopes');
      const scopes = body.scopes ?? [...own];
      const beyond = scopes.filter((s) => !own.includes(s));
      if (beyond.length > 0)
        throw new HttpError(
          403,
          `A token can only give a new token scopes it has itself; it lacks: ${beyond.join(', ')}`,
        );
      return createApiToken(ctx.db, currentUser(c).id, body.name, body.expires_in_days, scopes);
    },
  );

  route(
    {
      method: 'delete',
      path: '/tokens/{id}',
      summary: 'Revoke an API token (it answers 401 from then on)',
      auth: 'user',
      params: TokenId,
      response: Message,
      errors: [404],
    },
    async (c, { params }) => {
      // Another user's token id is indistinguishable from a missing one.
      if (!(await revokeApiToken(ctx.db, currentUser(c).id, params.id))) throw notFound('Token not found');
      return { message: 'Token revoked' };
    },
  );
}
