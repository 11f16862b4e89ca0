// Instruction routes (spec section 7): rename, delete, restore, stop, star, unstar.
import { Text, UpdateInstructionRequest, UserInstruction } from '@kernelforge/sdk';
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { type AppEnv, currentUser, userGuards } from '../http/auth.js';
import { routeTable } from '../http/route.js';
import {
  deleteInstruction,
  renameInstruction,
  restoreInstruction,
  starInstruction,
  stopInstruction,
} from '../services/instructions.js';

const IdParam = z.object({ id: Text.max(100) });

export function mountInstructionRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  const route = routeTable(api, '/api/v1', userGuards(ctx));
  const on = {
    tags: ['instruction'],
    auth: 'user',
    params: IdParam,
    response: UserInstruction,
    errors: [404],
  } as const;
  const path = '/agent-session/instruction/{id}';

  route(
    { ...on, method: 'patch', path, summary: 'Rename an instruction', body: UpdateInstructionRequest },
    async (c, { params, body }) => renameInstruction(ctx, currentUser(c), params.id, body.name),
  );
  route(
    { ...on, method: 'delete', path, summary: 'Delete an instruction: its pending work stops, its attempts stay' },
    async (c, { params }) => deleteInstruction(ctx, currentUser(c), params.id),
  );
  route(
    { ...on, method: 'post', path: `${path}/restore`, summary: 'Restore a deleted instruction' },
    async (c, { params }) => restoreInstruction(ctx, currentUser(c), params.id),
  );
  route(
    { ...on, method: 'post', path: `${path}/stop`, summary: 'Stop an instruction now; evaluated attempts stay' },
    async (c, { params }) => stopInstruction(ctx, currentUser(c), params.id),
  );
  route({ ...on, method: 'post', path: `${path}/star`, summary: 'Star an instruction' }, async (c, { params }) =>
    starInstruction(ctx, currentUser(c), params.id, true),
  );
  route({ ...on, method: 'delete', path: `${path}/star`, summary: 'Unstar an instruction' }, async (c, { params }) =>
    starInstruction(ctx, currentUser(c), params.id, false),
  );
}
