// Session rename, stop, delete and restore. Delete asks first, and its toast offers Undo (a soft delete: the session is
// listed under /sessions?deleted=1 and restorable from there too).
import type { AgentSession } from '@kernelforge/sdk';
import { toast } from 'sonner';
import { useAction } from '../hooks/useAction';
import type { useSessionMutations } from '../hooks/useSessionMutations';
import { useRefreshSessionLists } from '../hooks/useSessions';
import { Button } from './Button';
import { ConfirmButton } from './ConfirmButton';
import { InlineRename } from './InlineRename';

export function SessionActions({
  session,
  actions,
}: {
  session: AgentSession;
  actions: ReturnType<typeof useSessionMutations>;
}) {
  const { busy, run } = useAction();
  const refreshLists = useRefreshSessionLists();
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
          Stop session
        </Button>
      ) : null}
      {deleted ? (
        <Button
          size="sm"
          variant="primary"
          disabled={busy}
          onClick={() =>
            void run(
              async () => {
                await actions.restore();
                void refreshLists();
              },
              'Failed to restore the session',
              'Session restored',
            )
          }
        >
          Restore
        </Button>
      ) : (
        <ConfirmButton
          size="sm"
          variant="danger"
          disabled={busy}
          question={
            session.status === 'active'
              ? 'Delete this session? Its agent stops; you can restore it from Deleted sessions.'
              : 'Delete this session? You can restore it from Deleted sessions.'
          }
          confirmLabel="Yes, delete it"
          onConfirm={() =>
            void run(async () => {
              await actions.remove();
              void refreshLists();
              toast.success('Session deleted', {
                description: 'Listed under My sessions › Deleted.',
                action: {
                  label: 'Undo',
                  onClick: () =>
                    void run(
                      async () => {
                        await actions.restore();
                        void refreshLists();
                      },
                      'Failed to restore the session',
                      'Session restored',
                    ),
                },
              });
            }, 'Failed to delete the session')
          }
        >
          Delete session
        </ConfirmButton>
      )}
    </>
  );
}
