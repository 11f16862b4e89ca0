// Instruction routes (spec section 7): rename, delete, restore, stop, star, unstar.
import { UpdateInstructionRequest, UserInstruction, Text } from '@kernelforge/sdk';
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { type AppEnv, currentUser, requireUser } from '../http/auth.js';
import { registerRoute } from '../http/openapi.js';
import { parseJson, parseParams } from '../http/validate.js';
import {
  deleteInstruction,
  renameInstruction,
  restoreInstruction,
  starInstruction,
  stopInstruction,
} from '../services/instructions.js';

const IdParam = z.object({ id: Text.max(100) });

export function mountInstructionRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  const auth = requireUser(ctx);
  const tags = ['instruction'];
  const doc = (method: 'post' | 'patch' | 'delete', suffix: string, summary: string, body?: z.ZodType) =>
    registerRoute({
      method,
      path: `/api/v1/agent-session/instruction/{id}${suffix}`,
      summary,
      tags,
      auth: 'user',
      request: body ? { params: IdParam, body } : { params: IdParam },
      response: UserInstruction,
      errors: [404],
    });

  doc('patch', '', 'Rename an instruction', UpdateInstructionRequest);
  api.patch('/agent-session/instruction/:id', auth, async (c) => {
    const { id } = parseParams(c, IdParam);
    const body = await parseJson(c, UpdateInstructionRequest);
    return c.json(UserInstruction.parse(await renameInstruction(ctx, currentUser(c), id, body.name)));
  });

  doc('delete', '', 'Delete an instruction: its pending work stops, its attempts stay');
  api.delete('/agent-session/instruction/:id', auth, async (c) => {
    const { id } = parseParams(c, IdParam);
    return c.json(UserInstruction.parse(await deleteInstruction(ctx, currentUser(c), id)));
  });

  doc('post', '/restore', 'Restore a deleted instruction');
  api.post('/agent-session/instruction/:id/restore', auth, async (c) => {
    const { id } = parseParams(c, IdParam);
    return c.json(UserInstruction.parse(await restoreInstruction(ctx, currentUser(c), id)));
  });

  doc('post', '/stop', 'Stop an instruction now; evaluated attempts stay');
  api.post('/agent-session/instruction/:id/stop', auth, async (c) => {
    const { id } = parseParams(c, IdParam);
    return c.json(UserInstruction.parse(await stopInstruction(ctx, currentUser(c), id)));
  });

  doc('post', '/star', 'Star an instruction');
  api.post('/agent-session/instruction/:id/star', auth, async (c) => {
    const { id } = parseParams(c, IdParam);
    return c.json(UserInstruction.parse(await starInstruction(ctx, currentUser(c), id, true)));
  });

  doc('delete', '/star', 'Unstar an instruction');
  api.delete('/agent-session/instruction/:id/star', auth, async (c) => {
    const { id } = parseParams(c, IdParam);
    return c.json(UserInstruction.parse(await starInstruction(ctx, currentUser(c), id, false)));
  });
}
