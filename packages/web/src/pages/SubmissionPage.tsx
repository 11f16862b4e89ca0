// `/leaderboard/submission/{submissionId}`: one submission, followed until it has a verdict.
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { SubmissionResult } from '../components/SubmissionResult';
import { useSubmission } from '../hooks/useSubmission';
import type { PageProps } from '../lib/matchPath';

export default function SubmissionPage({ params }: PageProps) {
  const { data, error } = useSubmission(params.submissionId);
  return (
    <>
      <PageHeader title={data ? `Submission to ${data.problem_name.replace(/_/g, ' ')}` : 'Submission'} />
      <QueryState data={data} error={error} label="Loading submission…">
        {(submission) => <SubmissionResult submission={submission} />}
      </QueryState>
    </>
  );
}
