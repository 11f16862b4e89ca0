// `/kernels/submit` ('Submit a solution'): problem, device, language, source; follows the evaluation to its verdict.
// "Run tests" evaluates the same source in benchmark mode (public inputs) and shows its result: never ranked; the
// user's test runs are listed apart from their submissions ("Your test runs").
// A pytorch problem takes `pytorch` only, and its editor starts from the reference renamed to ModelNew.
import { type Language, modelNewTemplate, type Problem } from '@kernelforge/sdk';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { AppLink } from '../components/AppLink';
import { Button } from '../components/Button';
import { Card } from '../components/Card';
import { DeviceSelect } from '../components/DeviceSelect';
import { HowToAnswer } from '../components/HowToAnswer';
import { MySubmissionsTable } from '../components/MySubmissions';
import { MyTestRunsTable } from '../components/MyTestRuns';
import { SelectField } from '../components/fields';
import { PageHeader } from '../components/PageHeader';
import { ProblemSummary } from '../components/ProblemPicker';
import { QueryState } from '../components/QueryState';
import { SourceEditor } from '../components/SourceEditor';
import { SubmissionResult } from '../components/SubmissionResult';
import { useAction } from '../hooks/useAction';
import { useDevices } from '../hooks/useDevices';
import { useCreateSubmission, useMySubmissions, useMyTestRuns, useRunTests } from '../hooks/useMySubmissions';
import { useProblems } from '../hooks/useProblems';
import { useSubmission } from '../hooks/useSubmission';
import { problemLabel } from '../lib/problemName';
import { deviceRefusal, LANGUAGE_NAMES, languagesFor } from '../lib/problemKind';

export function sourceTemplate(prototype: string, language: Language): string {
  const includes =
    language === 'c' ? '#include <stdint.h>\n#include <stddef.h>' : '#include <cstdint>\n#include <cstddef>';
  const linkage = language === 'c' ? '' : 'extern "C" ';
  return `${includes}\n\n${linkage}${prototype} {\n    // Your kernel here.\n}\n`;
}

/** What the editor starts from: the ModelNew file for a pytorch problem, else a C/C++/CUDA skeleton. */
export function problemTemplate(problem: Problem, language: Language): string {
  if (problem.kind === 'pytorch') return modelNewTemplate(problem.reference_source ?? '');
  return sourceTemplate(problem.prototype, language);
}

function FollowedSubmission({ id, test }: { id: string; test: boolean }) {
  const { data, error } = useSubmission(id);
  return (
    <section aria-label={test ? 'Test run' : 'Evaluation'} className="mt-8">
      <h2 className="mb-3 text-lg font-semibold text-slate-900 dark:text-white">
        {test ? 'Test run' : 'Evaluation'}{' '}
        <AppLink
          href={`/leaderboard/submission/${id}`}
          className="ml-2 text-sm font-normal text-indigo-700 hover:underline dark:text-indigo-300"
        >
          open its page
        </AppLink>
      </h2>
      {test ? (
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-300">
          Checked against the reference and timed on public inputs (benchmark mode). Not ranked: Submit puts it on the
          leaderboard.
        </p>
      ) : null}
      <QueryState data={data} error={error}>
        {(submission) => <SubmissionResult submission={submission} />}
      </QueryState>
    </section>
  );
}

function MySubmissions() {
  const { data, error } = useMySubmissions();
  return (
    <section aria-label="Your submissions" className="mt-8">
      <h2 className="mb-3 text-lg font-semibold text-slate-900 dark:text-white">Your submissions</h2>
      <Card>
        <QueryState data={data} error={error} label="Loading your submissions…">
          {(page) => (
            <MySubmissionsTable
              submissions={page.data}
              total={page.count}
              emptyAction={{ label: 'Write your solution', focus: 'submit-source' }}
            />
          )}
        </QueryState>
      </Card>
    </section>
  );
}

/** Beside "Your submissions", never mixed into them: the test runs, each marked as not ranked. */
function MyTestRuns() {
  const { data, error } = useMyTestRuns();
  return (
    <section aria-label="Your test runs" className="mt-8">
      <h2 className="mb-1 text-lg font-semibold text-slate-900 dark:text-white">Your test runs</h2>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-300">
        Run tests results: checked and timed on public inputs, never ranked and never on a leaderboard.
      </p>
      <Card>
        <QueryState data={data} error={error} label="Loading your test runs…">
          {(page) => <MyTestRunsTable runs={page.data} total={page.count} />}
        </QueryState>
      </Card>
    </section>
  );
}

export default function SubmitPage() {
  const problems = useProblems();
  const devices = useDevices();
  const { busy, run } = useAction();
  const submit = useCreateSubmission();
  const runTests = useRunTests();
  const [acting, setActing] = useState<'submit' | 'test' | null>(null);
  // The chosen problem lives in the URL (?problem=), so a link can open the page on it.
  const search = useSearch();
  const problemName = new URLSearchParams(search).get('problem') ?? '';
  const setProblemName = (name: string) =>
    navigate(`${window.location.pathname}?problem=${encodeURIComponent(name)}`, { replace: true });
  const [device, setDevice] = useState('');
  const [language, setLanguage] = useState<Language>('c');
  const [source, setSource] = useState('');
  const [followed, setFollowed] = useState<{ id: string; test: boolean } | null>(null);
  // The last template put in the editor: replaced by the next problem's while the user has not edited it.
  const template = useRef('');

  const problem = problems.data?.data.find((p) => p.name === problemName);
  const usableDevices = useMemo(
    () => (devices.data?.data ?? []).filter((d) => !problem || problem.backends.includes(d.kind)),
    [devices.data, problem],
  );
  const device_ = usableDevices.find((d) => d.id === device);
  const languages = languagesFor(problem, device_);
  const refusal = useMemo(() => (d: (typeof usableDevices)[number]) => deviceRefusal(d, problem), [problem]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: setProblemName only navigates.
  useEffect(() => {
    const first = problems.data?.data[0];
    if (!problemName && first) setProblemName(first.name);
  }, [problems.data, problemName]);
  useEffect(() => {
    const runs = usableDevices.filter((d) => !refusal(d));
    if (runs.some((d) => d.id === device && d.available)) return;
    setDevice((runs.find((d) => d.available) ?? runs[0])?.id ?? '');
  }, [usableDevices, device, refusal]);
  useEffect(() => {
    const first = languages[0];
    if (first && !languages.includes(language)) setLanguage(first);
  }, [languages, language]);
  useEffect(() => {
    // A fresh template for each problem, unless the user has written something of their own.
    if (!problem) return;
    const next = problemTemplate(problem, language);
    const previous = template.current;
    template.current = next;
    setSource((current) =>
      current.trim() === '' || current === previous || current.includes('// Your kernel here.') ? next : current,
    );
  }, [problem, language]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setActing('submit');
    const submission = await run(
      () => submit({ problem_name: problemName, device, language, source }),
      'Failed to submit the solution',
      'Submitted: evaluating…',
    );
    if (submission) setFollowed({ id: submission.id, test: false });
  }

  async function onRunTests() {
    setActing('test');
    const testRun = await run(
      () => runTests({ problem_name: problemName, device, language, source }),
      'Failed to run the tests',
      'Running tests…',
    );
    if (testRun) setFollowed({ id: testRun.id, test: true });
  }

  return (
    <>
      <PageHeader
        title="Submit a solution"
        subtitle="Your source is compiled, checked on hidden inputs and timed; accepted solutions are ranked."
      />
      <form onSubmit={onSubmit} className="grid gap-6 lg:grid-cols-5" aria-label="Submit a solution">
        <Card className="space-y-4 lg:col-span-2">
          <QueryState data={problems.data} error={problems.error} label="Loading problems…">
            {(list) => (
              <SelectField
                label="Problem"
                value={problemName}
                onChange={(e) => setProblemName(e.target.value)}
                required
              >
                {list.data.map((p) => (
                  <option key={p.name} value={p.name}>
                    {problemLabel(p.name, p.title)}
                  </option>
                ))}
              </SelectField>
            )}
          </QueryState>
          <QueryState data={devices.data} error={devices.error} label="Loading devices…">
            {() => <DeviceSelect devices={usableDevices} value={device} onChange={setDevice} refusal={refusal} />}
          </QueryState>
          <SelectField label="Language" value={language} onChange={(e) => setLanguage(e.target.value as Language)}>
            {languages.map((l) => (
              <option key={l} value={l}>
                {LANGUAGE_NAMES[l]}
              </option>
            ))}
          </SelectField>
          {problem ? <ProblemSummary problem={problem} deviceKind={device_?.kind} referenceOpen={false} /> : null}
          {problem?.kind === 'pytorch' ? (
            <HowToAnswer
              problem={problem}
              device={device_}
              onUseTemplate={(next) => {
                template.current = next;
                setSource(next);
                document.getElementById('submit-source')?.scrollIntoView({ block: 'nearest' });
              }}
            />
          ) : null}
        </Card>
        <Card className="space-y-4 lg:col-span-3">
          <div id="submit-source">
            <SourceEditor value={source} onChange={setSource} language={language} />
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <Button
              type="button"
              onClick={onRunTests}
              disabled={busy || !problemName || !device || !source.trim()}
              title="Compile, check against the reference and time it on public inputs; not ranked"
            >
              {busy && acting === 'test' ? 'Running tests…' : 'Run tests'}
            </Button>
            <Button type="submit" variant="primary" disabled={busy || !problemName || !device || !source.trim()}>
              {busy && acting === 'submit' ? 'Submitting…' : 'Submit'}
            </Button>
          </div>
        </Card>
      </form>
      {followed ? <FollowedSubmission key={followed.id} id={followed.id} test={followed.test} /> : null}
      <MySubmissions />
      <MyTestRuns />
    </>
  );
}
