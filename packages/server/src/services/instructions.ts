// User instructions: rename, soft delete (stops its work, keeps its attempts), restore, stop, star and unstar.
import type { UserInstruction } from '@kernelforge/sdk';
import { publish } from '../domain/sessions/instruction-chain.js';
import { ownInstruction } from '../domain/sessions/queries.js';
import { stopInstructionWork } from '../domain/sessions/stop.js';
import type { AppContext } from '../context.js';
import { INSTRUCTION_COLUMNS, type InstructionRow, toInstruction } from '../db/rows.js';
import type { Caller } from '../domain/sessions/service.js';
import type { Sql } from '../db/sql.js';

async function update(
  ctx: AppContext,
  tx: Sql,
  id: string,
  set: string,
  params: unknown[] = [],
): Promise<UserInstruction> {
  const rows = await tx.query<InstructionRow>(
    `UPDATE user_instructions SET ${set} WHERE id = $1 RETURNING ${INSTRUCTION_COLUMNS}`,
    [id, ...params],
  );
  const wire = toInstruction(rows[0] as InstructionRow);
  await publish(ctx, tx, { type: 'instruction.updated', session_id: wire.session_id, instruction: wire });
  return wire;
}

export async function renameInstruction(
  ctx: AppContext,
  user: Caller,
  id: string,
  name: string,
): Promise<UserInstruction> {
  await ownInstruction(ctx.db, user, id);
  return ctx.db.transaction((tx) => update(ctx, tx, id, 'name = $2', [name]));
}

export async function starInstruction(
  ctx: AppContext,
  user: Caller,
  id: string,
  starred: boolean,
): Promise<UserInstruction> {
  await ownInstruction(ctx.db, user, id);
  return ctx.db.transaction((tx) => update(ctx, tx, id, 'starred = $2', [starred]));
}

export async function stopInstruction(ctx: AppContext, user: Caller, id: string): Promise<UserInstruction> {
  const { session } = await ownInstruction(ctx.db, user, id);
  return ctx.db.transaction(async (tx) => {
    await stopInstructionWork(ctx, tx, session.id, id);
    return update(ctx, tx, id, 'status = status');
  });
}

/** Deleting stops the instruction's pending work and hides it from agents; its attempts stay. */
export async function deleteInstruction(ctx: AppContext, user: Caller, id: string): Promise<UserInstruction> {
  const { session } = await ownInstruction(ctx.db, user, id);
  return ctx.db.transaction(async (tx) => {
    await stopInstructionWork(ctx, tx, session.id, id);
    return update(ctx, tx, id, 'deleted_at = coalesce(deleted_at, now())');
  });
}

/** Restoring un-hides it; work it lost to the delete stays stopped (a new round is a new instruction). */
export async function restoreInstruction(ctx: AppContext, user: Caller, id: string): Promise<UserInstruction> {
  await ownInstruction(ctx.db, user, id);
  return ctx.db.transaction((tx) => update(ctx, tx, id, 'deleted_at = NULL'));
}
