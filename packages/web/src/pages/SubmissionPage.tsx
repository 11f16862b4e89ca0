// `/leaderboard/submission/{submissionId}`: one submission, followed until it has a verdict; compare it with another
// of the viewer's submissions to the same problem.
import { CompareWith } from '../components/CompareWith';
import { PageHeader } from '../components/PageHeader';
import { ProblemName } from '../components/ProblemName';
import { QueryState } from '../components/QueryState';
import { SubmissionResult } from '../components/SubmissionResult';
import { useSubmission } from '../hooks/useSubmission';
import type { PageProps } from '../lib/matchPath';

export default function SubmissionPage({ params }: PageProps) {
  const { data, error } = useSubmission(params.submissionId);
  return (
    <>
      <PageHeader
        title={data ? `Submission to ${data.problem_name}` : 'Submission'}
        heading={
          data ? (
            <>
              Submission to{' '}
              <ProblemName
                name={data.problem_name}
                href={`/leaderboard/${encodeURIComponent(data.problem_name)}`}
                narrow
              />
            </>
          ) : undefined
        }
      />
      <QueryState data={data} error={error} label="Loading submission…">
        {(submission) => (
          <>
            <CompareWith submission={submission} />
            <SubmissionResult submission={submission} />
          </>
        )}
      </QueryState>
    </>
  );
}
