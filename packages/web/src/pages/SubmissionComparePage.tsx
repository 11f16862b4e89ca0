// `/leaderboard/submission/{a}/compare/{b}`: two submissions side by side: who, what, where, their verdicts and
// figures, whether their times differ beyond noise, and the diff of their sources when the viewer may read both
// (?view=split: side by side). Another user's source stays theirs: then the comparison is by figures only.
import type { SubmissionDetail } from '@kernelforge/sdk';
import { AppLink } from '../components/AppLink';
import { buttonClass } from '../components/Button';
import { Card } from '../components/Card';
import { CompareFigures, Figure } from '../components/CompareFigures';
import { CopyButton } from '../components/CopyButton';
import { DiffLayoutTabs, useDiffLayout } from '../components/DiffLayoutTabs';
import { DiffView } from '../components/DiffView';
import { PageHeader } from '../components/PageHeader';
import { ProblemName } from '../components/ProblemName';
import { QueryState } from '../components/QueryState';
import { TimeChange } from '../components/TimeChange';
import { useSubmission } from '../hooks/useSubmission';
import { formatDate } from '../lib/format';
import type { PageProps } from '../lib/matchPath';
import { submissionComparePath } from '../lib/submissionCompare';

function Figures({ submission, side }: { submission: SubmissionDetail; side: 'A' | 'B' }) {
  const result = submission.evaluation_state?.benchmarking_result;
  return (
    <CompareFigures
      side={side}
      heading={
        <AppLink href={`/leaderboard/submission/${submission.id}`}>Submission {submission.id.slice(0, 8)}</AppLink>
      }
      status={submission.status}
      verdict={submission.verdict}
      result={result}
      ms={result?.optimized_time ?? submission.time_ms}
    >
      <Figure term="User">{submission.user.display_name}</Figure>
      <Figure term="Problem">
        <ProblemName
          name={submission.problem_name}
          href={`/leaderboard/${encodeURIComponent(submission.problem_name)}`}
        />
      </Figure>
      <Figure term="Device">
        <span className="font-mono text-xs">{submission.device}</span>
      </Figure>
      <Figure term="Submitted">{formatDate(submission.created_at)}</Figure>
    </CompareFigures>
  );
}

/** What keeps two submissions' times from being compared: another problem, another device; empty when none does. */
export function whyNotComparable(a: SubmissionDetail, b: SubmissionDetail): string[] {
  const why: string[] = [];
  if (a.problem_name !== b.problem_name) why.push(`different problems (${a.problem_name} and ${b.problem_name})`);
  if (a.device !== b.device) why.push(`different devices (${a.device} and ${b.device})`);
  return why;
}

/** Whose source the viewer cannot read, in plain words; undefined when both are readable. */
function hiddenSourceNote(a: SubmissionDetail, b: SubmissionDetail): string | undefined {
  if (a.source !== null && b.source !== null) return undefined;
  if (a.source === null && b.source === null)
    return a.user.id === b.user.id
      ? `Compared by figures only: both sources are ${a.user.display_name}'s, visible to their owner only.`
      : "Compared by figures only: each source is its owner's, visible to its owner only.";
  const [side, hidden] = a.source === null ? ['A', a] : ['B', b];
  return `Compared by figures only: the source of ${side} is ${hidden.user.display_name}'s, visible to its owner only.`;
}

function SubmissionCompareView({ a, b }: { a: SubmissionDetail; b: SubmissionDetail }) {
  const [layout, setLayout] = useDiffLayout();
  const notComparable = whyNotComparable(a, b);
  const hidden = hiddenSourceNote(a, b);
  const sameProblem = a.problem_name === b.problem_name;
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-3 text-sm text-slate-600 dark:text-slate-400">
        <ol className="flex min-w-0 flex-wrap items-center gap-1">
          <li>
            <AppLink href="/leaderboard/">Leaderboard</AppLink>
          </li>
          {sameProblem ? (
            <>
              <li aria-hidden="true">/</li>
              <li className="min-w-0 truncate">
                <AppLink href={`/leaderboard/${encodeURIComponent(a.problem_name)}`}>{a.problem_name}</AppLink>
              </li>
            </>
          ) : null}
          <li aria-hidden="true">/</li>
          <li aria-current="page">Compare</li>
        </ol>
      </nav>
      <PageHeader
        title="Compare submissions"
        subtitle={
          sameProblem ? (
            <span className="flex flex-wrap items-baseline gap-x-2">
              <ProblemName name={a.problem_name} />
              {a.device === b.device ? <span className="font-mono text-xs">· {a.device}</span> : null}
            </span>
          ) : (
            <span className="flex flex-wrap items-baseline gap-x-2">
              <ProblemName name={a.problem_name} /> and <ProblemName name={b.problem_name} />
            </span>
          )
        }
        actions={
          <>
            <AppLink
              href={`${submissionComparePath(b.id, a.id)}${window.location.search}`}
              className={buttonClass('secondary', 'sm')}
            >
              Swap A and B
            </AppLink>
            <CopyButton text={window.location.href} label="Copy link" />
          </>
        }
      />
      <Card className="mb-6">
        {notComparable.length > 0 ? (
          <p
            role="note"
            data-testid="not-comparable"
            className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
          >
            Not comparable: these are submissions to {notComparable.join(' and to ')}. Their figures are shown side by
            side, but one time says nothing about the other.
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Figures submission={a} side="A" />
          <Figures submission={b} side="B" />
        </div>
        {notComparable.length === 0 ? (
          <div className="mt-4">
            <TimeChange
              before={{ label: 'A', result: a.evaluation_state?.benchmarking_result }}
              after={{ label: 'B', result: b.evaluation_state?.benchmarking_result }}
            />
          </div>
        ) : null}
      </Card>
      <Card
        title="Source"
        actions={hidden === undefined ? <DiffLayoutTabs layout={layout} onChange={setLayout} /> : undefined}
      >
        {hidden === undefined && a.source !== null && b.source !== null ? (
          <DiffView
            before={a.source}
            after={b.source}
            label="Diff of submission A against B"
            language={b.language}
            layout={layout}
          />
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="source-hidden">
            {hidden}
          </p>
        )}
      </Card>
    </>
  );
}

export default function SubmissionComparePage({ params }: PageProps) {
  const first = useSubmission(params.a);
  const second = useSubmission(params.b);
  const both = first.data && second.data ? ([first.data, second.data] as const) : undefined;
  return (
    <QueryState data={both} error={first.error ?? second.error} label="Loading the two submissions…">
      {([a, b]) => <SubmissionCompareView a={a} b={b} />}
    </QueryState>
  );
}
