// Submit an attempt to its problem's leaderboard: one confirmation, then the submission's page follows it. An attempt
// that cannot be submitted says why beside the disabled button, not only in a tooltip.
import { type AgentSession, type GenerationAttempt, unrankedReason } from '@kernelforge/sdk';
import { useLocation } from 'wouter';
import { useAction } from '../hooks/useAction';
import { useCreateSubmission } from '../hooks/useMySubmissions';
import { ConfirmButton } from './ConfirmButton';

/** Why an attempt cannot be submitted, in words; undefined when it can. */
export function whyNotSubmittable(attempt: GenerationAttempt): string | undefined {
  if (attempt.status === 'failed') return 'The attempt failed: only an accepted attempt can be submitted.';
  if (attempt.status !== 'completed') return 'Not evaluated yet: only an accepted attempt can be submitted.';
  const verdict = attempt.evaluation_state?.verdict;
  if (verdict && verdict !== 'accepted')
    return `Only an accepted attempt can be submitted: this one's verdict is ${verdict.replace(/_/g, ' ')}.`;
  const unranked = unrankedReason(attempt);
  if (unranked) return unranked;
  if (verdict !== 'accepted') return 'Only an accepted attempt can be submitted.';
  if (!attempt.source) return 'Its source is not available to submit.';
  return undefined;
}

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
  const createSubmission = useCreateSubmission();
  const why = whyNotSubmittable(attempt);

  async function submit() {
    const submission = await run(
      () =>
        createSubmission({
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
    <span className="inline-flex max-w-md flex-wrap items-center justify-end gap-x-2 gap-y-1">
      {why ? (
        <span className="text-right text-xs text-slate-600 dark:text-slate-400" data-testid="submit-why-not">
          {why}
        </span>
      ) : null}
      <ConfirmButton
        variant="primary"
        size={size}
        disabled={why !== undefined || busy}
        title={why}
        question={`Submit attempt #${attempt.attempt_number} to the ${session.problem_name} leaderboard? It is evaluated again in ranked mode and shown under your display name.`}
        confirmLabel="Submit"
        onConfirm={submit}
      >
        {busy ? 'Submitting…' : label}
      </ConfirmButton>
    </span>
  );
}
