// Agent-session routes (spec section 7): thin handlers over domain/sessions/service.ts.
import {
  AgentSession,
  AgentSessionSummary,
  CreateCustomSessionRequest,
  CreateSessionRequest,
  GenerationAttempt,
  ListAllSessionsParams,
  ListSessionsParams,
  Message,
  NewAttemptsRequest,
  NewAttemptsResponse,
  SessionProgress,
  UpdateSessionRequest,
  listOf,
  Text,
} from '@kernelforge/sdk';
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { type AppEnv, currentUser, requireUserAlong, userGuards } from '../http/auth.js';
import { routeTable } from '../http/route.js';
import {
  SessionJsonCache,
  sessionJson,
  sessionVersionAlongside,
  sessionVersionOf,
} from '../domain/sessions/session-json.js';
import {
  bestAttemptOf,
  createCustomSession,
  createSession,
  deleteSession,
  listSessions,
  newAttempts,
  restoreSession,
  stopSession,
  updateSession,
} from '../domain/sessions/service.js';
import { sessionProgressOf } from '../domain/sessions/progress.js';

const SessionList = listOf(AgentSessionSummary);
const IdParam = z.object({ id: Text.max(100) });
export const SESSION_PAGE_SIZE = 50;

export function mountSessionRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  // Per process: each replica checks the rows' versions in the shared database before reusing a rendering.
  const sessionBodies = new SessionJsonCache();
  const route = routeTable(api, '/api/v1', userGuards(ctx));
  const tags = ['agent-session'];
  const one = { tags, auth: 'user', params: IdParam, errors: [404] } as const;

  // Static paths first: /all and /custom must not be taken for an {id}.
  route(
    {
      method: 'get',
      path: '/agent-session/all',
      summary: 'Every session (superusers), filtered by owner_id and problem_name',
      tags,
      auth: 'superuser',
      query: ListAllSessionsParams,
      response: SessionList,
    },
    async (_c, { query: q }) => {
      const page = { limit: q.limit ?? SESSION_PAGE_SIZE, offset: q.offset ?? 0 };
      const filter = {
        ownerId: q.owner_id,
        problemName: q.problem_name,
        includeDeleted: q.include_deleted,
        deletedOnly: q.deleted_only,
      };
      return listSessions(ctx, filter, page);
    },
  );

  route(
    {
      method: 'post',
      path: '/agent-session/custom',
      summary: 'Start a session on your own reference',
      tags,
      auth: 'user',
      body: CreateCustomSessionRequest,
      response: AgentSession,
      status: 201,
      errors: [429],
    },
    async (c, { body }) => createCustomSession(ctx, currentUser(c), body),
  );

  route(
    {
      method: 'post',
      path: '/agent-session',
      summary: 'Start an agent session on a catalogue problem',
      tags,
      auth: 'user',
      body: CreateSessionRequest,
      response: AgentSession,
      status: 201,
      errors: [404, 429],
    },
    async (c, { body }) => createSession(ctx, currentUser(c), body),
  );

  route(
    {
      method: 'get',
      path: '/agent-session',
      summary: "The caller's sessions, newest first",
      tags,
      auth: 'user',
      query: ListSessionsParams,
      response: SessionList,
    },
    async (c, { query: q }) => {
      const page = { limit: q.limit ?? SESSION_PAGE_SIZE, offset: q.offset ?? 0 };
      const filter = { ownerId: currentUser(c).id, includeDeleted: q.include_deleted, deletedOnly: q.deleted_only };
      return listSessions(ctx, filter, page);
    },
  );

  route(
    {
      ...one,
      method: 'get',
      path: '/agent-session/{id}',
      summary: 'A session with its attempts, instructions and best attempt',
      response: AgentSession,
      // The user guard, reading the session's owner and row versions in the same statement as the user.
      guard: requireUserAlong(ctx, (c) => sessionVersionAlongside(c.req.param('id') ?? '')),
    },
    async (c, { params }) => {
      // The most-read route (the web polls it, the CLI watches it): assembled by Postgres, not parsed and re-serialised
      // here. test/product/session-read.test.ts holds it to AgentSession and to getSession's shape.
      const known = sessionVersionOf(c.get('alongside') as Record<string, unknown> | null | undefined);
      const body = await sessionJson(ctx.db, sessionBodies, currentUser(c), params.id, known);
      return c.body(body, 200, { 'Content-Type': 'application/json' });
    },
  );

  route(
    {
      ...one,
      method: 'patch',
      path: '/agent-session/{id}',
      summary: 'Rename or relabel a session',
      body: UpdateSessionRequest,
      response: AgentSession,
    },
    async (c, { params, body }) => updateSession(ctx, currentUser(c), params.id, body),
  );

  route(
    {
      ...one,
      method: 'delete',
      path: '/agent-session/{id}',
      summary: 'Soft-delete a session (stops its work; restore brings it back)',
      response: Message,
    },
    async (c, { params }) => {
      await deleteSession(ctx, currentUser(c), params.id);
      return { message: 'Session deleted' };
    },
  );

  route(
    {
      ...one,
      method: 'post',
      path: '/agent-session/{id}/restore',
      summary: 'Restore a deleted session',
      response: AgentSession,
    },
    async (c, { params }) => restoreSession(ctx, currentUser(c), params.id),
  );

  route(
    {
      ...one,
      method: 'post',
      path: '/agent-session/{id}/stop',
      summary: 'Stop a session now; evaluated attempts stay',
      response: AgentSession,
    },
    async (c, { params }) => stopSession(ctx, currentUser(c), params.id),
  );

  route(
    {
      ...one,
      method: 'get',
      path: '/agent-session/{id}/best-attempt',
      summary: 'The best attempt (spec rule)',
      response: GenerationAttempt,
    },
    async (c, { params }) => bestAttemptOf(ctx, currentUser(c), params.id),
  );

  route(
    {
      ...one,
      method: 'get',
      path: '/agent-session/{id}/progress',
      summary: "The current attempt's queue position and time estimate (polled while the session runs)",
      response: SessionProgress,
    },
    // Apart from GET /agent-session/{id} so the hot session read stays as cheap as it is.
    async (c, { params }) => sessionProgressOf(ctx, currentUser(c), params.id),
  );

  route(
    {
      ...one,
      method: 'post',
      path: '/agent-session/{id}/attempt',
      summary: 'A new instruction and its round of attempts',
      body: NewAttemptsRequest,
      response: NewAttemptsResponse,
      status: 201,
      errors: [404, 409, 429],
    },
    async (c, { params, body }) => newAttempts(ctx, currentUser(c), params.id, body),
  );
}
