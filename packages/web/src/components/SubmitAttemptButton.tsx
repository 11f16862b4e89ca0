// Submit an attempt to its problem's leaderboard: one confirmation, then the submission's page follows it.
import type { AgentSession, GenerationAttempt } from '@kernelforge/sdk';
import { useLocation } from 'wouter';
import { useAction } from '../hooks/useAction';
import { api } from '../lib/client';
import { ConfirmButton } from './ConfirmButton';

export function SubmitAttemptButton({
  session,
  attempt,
  size = 'md',
  label = 'Submit to leaderboard',
}: {
  session: Pick<AgentSession, 'problem_name' | 'device'>;
  attempt: GenerationAttempt;
  size?: 'sm' | 'md';
  label?: string;
}) {
  const [, navigate] = useLocation();
  const { busy, run } = useAction();
  const accepted = attempt.evaluation_state?.verdict === 'accepted' && Boolean(attempt.source);

  async function submit() {
    const submission = await run(
      () =>
        api().submissions.create({
          problem_name: session.problem_name,
          device: session.device,
          language: attempt.language,
          source: attempt.source ?? '',
          attempt_id: attempt.id,
        }),
      'Failed to submit to the leaderboard',
      'Submitted to the leaderboard',
    );
    if (submission) navigate(`/leaderboard/submission/${submission.id}`);
  }

  return (
    <ConfirmButton
      variant="primary"
      size={size}
      disabled={!accepted || busy}
      title={accepted ? undefined : 'Only an accepted attempt can be ranked'}
      question={`Submit attempt #${attempt.attempt_number} to the ${session.problem_name} leaderboard? It is evaluated again in ranked mode and shown under your display name.`}
      confirmLabel="Submit"
      onConfirm={submit}
    >
      {busy ? 'Submitting…' : label}
    </ConfirmButton>
  );
}
