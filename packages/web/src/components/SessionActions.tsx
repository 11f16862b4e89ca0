// Session rename, stop, delete and restore.
import type { AgentSession } from '@kernelforge/sdk';
import { useAction } from '../hooks/useAction';
import type { useSessionMutations } from '../hooks/useSessionMutations';
import { Button } from './Button';
import { InlineRename } from './InlineRename';

export function SessionActions({
  session,
  actions,
}: {
  session: AgentSession;
  actions: ReturnType<typeof useSessionMutations>;
}) {
  const { busy, run } = useAction();
  const deleted = session.deleted_at !== null;
  return (
    <>
      {!deleted ? (
        <InlineRename
          value={session.label}
          label="Session name"
          onRename={(label) => run(() => actions.rename(label), 'Failed to rename the session', 'Session renamed')}
        />
      ) : null}
      {!deleted && session.status === 'active' ? (
        <Button
          size="sm"
          disabled={busy}
          onClick={() => void run(() => actions.stop(), 'Failed to stop the session', 'Session stopped')}
        >
          Stop
        </Button>
      ) : null}
      {deleted ? (
        <Button
          size="sm"
          variant="primary"
          disabled={busy}
          onClick={() => void run(() => actions.restore(), 'Failed to restore the session', 'Session restored')}
        >
          Restore
        </Button>
      ) : (
        <Button
          size="sm"
          variant="danger"
          disabled={busy}
          onClick={() => void run(() => actions.remove(), 'Failed to delete the session', 'Session deleted')}
        >
          Delete
        </Button>
      )}
    </>
  );
}
