// The session's instructions: star, rename, stop, delete and restore each.
import type { UserInstruction } from '@kernelforge/sdk';
import { useAction } from '../hooks/useAction';
import type { useSessionMutations } from '../hooks/useSessionMutations';
import { Button } from './Button';
import { InlineRename } from './InlineRename';
import { StatusBadge } from './StatusBadge';

type Mutations = ReturnType<typeof useSessionMutations>;

function InstructionItem({ instruction, actions }: { instruction: UserInstruction; actions: Mutations }) {
  const { busy, run } = useAction();
  const deleted = instruction.deleted_at !== null;
  const running = instruction.status === 'active' || instruction.status === 'generating';
  return (
    <li data-testid="instruction" className={`py-3 ${deleted ? 'opacity-60' : ''}`}>
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          aria-pressed={instruction.starred}
          aria-label={instruction.starred ? `Unstar ${instruction.name}` : `Star ${instruction.name}`}
          disabled={busy || deleted}
          onClick={() =>
            void run(() => actions.star(instruction.id, !instruction.starred), 'Failed to update the star')
          }
          className={`rounded p-1 text-lg leading-none ${instruction.starred ? 'text-amber-500' : 'text-slate-400 hover:text-amber-500'}`}
        >
          {instruction.starred ? '★' : '☆'}
        </button>
        <span className="font-medium text-slate-900 dark:text-slate-100">{instruction.name}</span>
        <StatusBadge status={deleted ? 'deleted' : instruction.status} />
        <span className="text-xs text-slate-500 dark:text-slate-400">
          up to {instruction.max_attempts} {instruction.max_attempts === 1 ? 'attempt' : 'attempts'}
        </span>
        <div className="ml-auto flex flex-wrap gap-2">
          {!deleted ? (
            <InlineRename
              value={instruction.name}
              label="Instruction name"
              onRename={(name) =>
                run(() => actions.renameInstruction(instruction.id, name), 'Failed to rename the instruction')
              }
            />
          ) : null}
          {!deleted && running ? (
            <Button
              size="sm"
              disabled={busy}
              aria-label={`Stop instruction ${instruction.name}`}
              onClick={() => void run(() => actions.stopInstruction(instruction.id), 'Failed to stop the instruction')}
            >
              Stop
            </Button>
          ) : null}
          {deleted ? (
            <Button
              size="sm"
              disabled={busy}
              onClick={() =>
                void run(() => actions.restoreInstruction(instruction.id), 'Failed to restore the instruction')
              }
            >
              Restore
            </Button>
          ) : (
            <Button
              size="sm"
              variant="ghost"
              disabled={busy}
              aria-label={`Delete instruction ${instruction.name}`}
              onClick={() =>
                void run(() => actions.deleteInstruction(instruction.id), 'Failed to delete the instruction')
              }
            >
              Delete
            </Button>
          )}
        </div>
      </div>
      {instruction.text ? (
        <p className="mt-1 text-sm whitespace-pre-line text-slate-600 dark:text-slate-300">{instruction.text}</p>
      ) : null}
    </li>
  );
}

export function InstructionList({
  instructions,
  actions,
}: {
  instructions: readonly UserInstruction[];
  actions: Mutations;
}) {
  if (instructions.length === 0)
    return <p className="text-sm text-slate-500 dark:text-slate-400">No instruction yet.</p>;
  return (
    <ul className="divide-y divide-slate-100 dark:divide-slate-800">
      {instructions.map((instruction) => (
        <InstructionItem key={instruction.id} instruction={instruction} actions={actions} />
      ))}
    </ul>
  );
}
