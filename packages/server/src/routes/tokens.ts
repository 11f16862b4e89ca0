// API tokens of the signed-in user: list, create (the token is in this one response), revoke.
import { ApiToken, CreateApiTokenRequest, CreatedApiToken, Message, listOf, Text } from '@kernelforge/sdk';
import type { Hono } from 'hono';
import { z } from 'zod';
import { createApiToken, listApiTokens, revokeApiToken } from '../auth/api-tokens.js';
import type { AppContext } from '../context.js';
import { type AppEnv, currentUser, requireUser } from '../http/auth.js';
import { HttpError, notFound } from '../http/errors.js';
import { registerRoute } from '../http/openapi.js';
import { parseJson, parseParams } from '../http/validate.js';

const TokenList = listOf(ApiToken);
const TokenId = z.object({ id: Text.max(100) });

/** Mounted on the /api/v1 sub-app: paths here are relative to it. */
export function mountTokenRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  const auth = requireUser(ctx);

  registerRoute({
    method: 'get',
    path: '/api/v1/tokens',
    summary: "The signed-in user's live API tokens",
    auth: 'user',
    response: TokenList,
  });
  api.get('/tokens', auth, async (c) => {
    const data = await listApiTokens(ctx.db, currentUser(c).id);
    return c.json(TokenList.parse({ data, count: data.length }));
  });

  registerRoute({
    method: 'post',
    path: '/api/v1/tokens',
    summary:
      'Create an API token (scopes: read, submit, sessions, tokens; default all); the token appears in this response only',
    auth: 'user',
    request: { body: CreateApiTokenRequest },
    response: CreatedApiToken,
    status: 201,
    errors: [403],
  });
  api.post('/tokens', auth, async (c) => {
    const body = await parseJson(c, CreateApiTokenRequest);
    // A token never mints a token that can do more than itself.
    const own = c.get('scopes');
    const scopes = body.scopes ?? [...own];
    const beyond = scopes.filter((s) => !own.includes(s));
    if (beyond.length > 0)
      throw new HttpError(
        403,
        `A token can only give a new token scopes it has itself; it lacks: ${beyond.join(', ')}`,
      );
    const created = await createApiToken(ctx.db, currentUser(c).id, body.name, body.expires_in_days, scopes);
    return c.json(CreatedApiToken.parse(created), 201);
  });

  registerRoute({
    method: 'delete',
    path: '/api/v1/tokens/{id}',
    summary: 'Revoke an API token (it answers 401 from then on)',
    auth: 'user',
    request: { params: TokenId },
    response: Message,
    errors: [404],
  });
  api.delete('/tokens/:id', auth, async (c) => {
    const { id } = parseParams(c, TokenId);
    // Another user's token id is indistinguishable from a missing one.
    if (!(await revokeApiToken(ctx.db, currentUser(c).id, id))) throw notFound('Token not found');
    return c.json(Message.parse({ message: 'Token revoked' }));
  });
}
