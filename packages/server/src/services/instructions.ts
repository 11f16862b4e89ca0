// User instructions: rename, soft delete (stops its work, keeps its attempts), restore, stop, star and unstar.
import type { UserInstruction } from '@kernelforge/sdk';
import { publish } from '../sessions/loop.js';
import { ownInstruction } from '../sessions/queries.js';
import { stopInstructionWork } from '../sessions/stop.js';
import type { Product } from './product.js';
import { INSTRUCTION_COLUMNS, type InstructionRow, toInstruction } from './rows.js';
import type { Caller } from './sessions.js';
import type { Sql } from './sql.js';

async function update(p: Product, tx: Sql, id: string, set: string, params: unknown[] = []): Promise<UserInstruction> {
  const rows = await tx.query<InstructionRow>(
    `UPDATE user_instructions SET ${set} WHERE id = $1 RETURNING ${INSTRUCTION_COLUMNS}`,
    [id, ...params],
  );
  const wire = toInstruction(rows[0] as InstructionRow);
  await publish(p, tx, { type: 'instruction.updated', session_id: wire.session_id, instruction: wire });
  return wire;
}

export async function renameInstruction(p: Product, user: Caller, id: string, name: string): Promise<UserInstruction> {
  await ownInstruction(p.sql, user, id);
  return p.sql.transaction((tx) => update(p, tx, id, 'name = $2', [name]));
}

export async function starInstruction(
  p: Product,
  user: Caller,
  id: string,
  starred: boolean,
): Promise<UserInstruction> {
  await ownInstruction(p.sql, user, id);
  return p.sql.transaction((tx) => update(p, tx, id, 'starred = $2', [starred]));
}

export async function stopInstruction(p: Product, user: Caller, id: string): Promise<UserInstruction> {
  const { session } = await ownInstruction(p.sql, user, id);
  return p.sql.transaction(async (tx) => {
    await stopInstructionWork(p, tx, session.id, id);
    return update(p, tx, id, 'status = status');
  });
}

/** Deleting stops the instruction's pending work and hides it from agents; its attempts stay. */
export async function deleteInstruction(p: Product, user: Caller, id: string): Promise<UserInstruction> {
  const { session } = await ownInstruction(p.sql, user, id);
  return p.sql.transaction(async (tx) => {
    await stopInstructionWork(p, tx, session.id, id);
    return update(p, tx, id, 'deleted_at = coalesce(deleted_at, now())');
  });
}

/** Restoring un-hides it; work it lost to the delete stays stopped (a new round is a new instruction). */
export async function restoreInstruction(p: Product, user: Caller, id: string): Promise<UserInstruction> {
  await ownInstruction(p.sql, user, id);
  return p.sql.transaction((tx) => update(p, tx, id, 'deleted_at = NULL'));
}
