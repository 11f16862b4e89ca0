// `/kernels/generate-kernel` ('New kernel'): problem, device, agent and model, instruction, attempts; starts a session.
// For a pytorch problem the agent writes PyTorch (ModelNew files) and devices without PyTorch are not offered.
import { DEFAULT_MAX_ATTEMPTS, errorMessage } from '@kernelforge/sdk';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import { AgentOfferNote } from '../components/AgentOfferNote';
import { AttemptsField } from '../components/AttemptsField';
import { Button } from '../components/Button';
import { Card } from '../components/Card';
import { DeviceSelect } from '../components/DeviceSelect';
import { EmptyState } from '../components/EmptyState';
import { SelectField, TextArea } from '../components/fields';
import { FormMessage } from '../components/FormMessage';
import { PageHeader } from '../components/PageHeader';
import { ProblemName } from '../components/ProblemName';
import { ProblemPicker, ProblemSummary } from '../components/ProblemPicker';
import { QueryState } from '../components/QueryState';
import { SessionList } from '../components/SessionList';
import { useDevices } from '../hooks/useDevices';
import { useProblems } from '../hooks/useProblems';
import { useSessionListMutations, useSessions } from '../hooks/useSessions';
import { useSettings } from '../hooks/useSettings';
import { attemptsError } from '../lib/formChecks';
import { deviceRefusal, LANGUAGE_NAMES, languagesFor } from '../lib/problemKind';

export default function GenerateKernelPage() {
  const problems = useProblems();
  const devices = useDevices();
  const { data: settings } = useSettings();
  const sessions = useSessions(0);
  const sessionActions = useSessionListMutations();
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);
  /** Why the last start failed, shown under the Start button (where the user is looking), not in a passing toast. */
  const [failure, setFailure] = useState<string | null>(null);

  const [problemName, setProblemName] = useState('');
  const [device, setDevice] = useState('');
  const [provider, setProvider] = useState('');
  const [model, setModel] = useState('');
  const [instruction, setInstruction] = useState('');
  const [attempts, setAttempts] = useState(String(DEFAULT_MAX_ATTEMPTS));
  const [checkAttempts, setCheckAttempts] = useState(false);

  const problem = problems.data?.data.find((p) => p.name === problemName);
  const agents = settings?.agents ?? [];
  const agent = agents.find((a) => a.provider === provider);
  const usableDevices = useMemo(
    () => (devices.data?.data ?? []).filter((d) => !problem || problem.backends.includes(d.kind)),
    [devices.data, problem],
  );

  useEffect(() => {
    const first = problems.data?.data[0];
    if (!problemName && first) setProblemName(first.name);
  }, [problems.data, problemName]);
  const refusal = useMemo(() => (d: (typeof usableDevices)[number]) => deviceRefusal(d, problem), [problem]);
  const device_ = usableDevices.find((d) => d.id === device);
  const torch = problem?.kind === 'pytorch';

  useEffect(() => {
    const runs = usableDevices.filter((d) => !refusal(d));
    if (runs.some((d) => d.id === device && d.available)) return;
    const pick = runs.find((d) => d.available) ?? runs[0];
    setDevice(pick?.id ?? '');
  }, [usableDevices, device, refusal]);
  useEffect(() => {
    const first = agents[0];
    if (!provider && first) {
      setProvider(first.provider);
      setModel(first.default_model ?? first.models[0] ?? '');
    }
  }, [agents, provider]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!problemName || !device) return;
    if (attemptsError(attempts)) {
      setCheckAttempts(true);
      document.getElementById('session-attempts')?.focus();
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const session = await sessionActions.create({
        problem_name: problemName,
        device,
        max_attempts: Number(attempts),
        ...(instruction.trim() ? { instruction: instruction.trim() } : {}),
        ...(provider ? { agent: { provider, model: model || null } } : {}),
      });
      navigate(`/kernels/${session.id}`);
    } catch (error) {
      setFailure(errorMessage(error, 'Failed to start the session'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <PageHeader
        title="New kernel"
        subtitle="Pick a problem and a device, tell the agent what to try, and watch it work."
      />
      <form onSubmit={onSubmit} noValidate className="grid gap-6 lg:grid-cols-5" aria-label="Start a session">
        <Card className="lg:col-span-3">
          <QueryState data={problems.data} error={problems.error} label="Loading problems…">
            {(list) => <ProblemPicker problems={list.data} value={problemName} onChange={setProblemName} />}
          </QueryState>
          {problem ? (
            <div className="mt-4 border-t border-slate-100 pt-4 dark:border-slate-800">
              <h2 className="mb-2 font-semibold text-slate-900 dark:text-white">
                <ProblemName name={problem.name} title={problem.title} />
              </h2>
              <ProblemSummary problem={problem} deviceKind={device_?.kind} />
            </div>
          ) : null}
        </Card>
        <Card className="space-y-4 lg:col-span-2">
          <QueryState data={devices.data} error={devices.error} label="Loading devices…">
            {() => <DeviceSelect devices={usableDevices} value={device} onChange={setDevice} refusal={refusal} />}
          </QueryState>
          {torch ? (
            <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="session-language">
              <span className="font-medium">Language: </span>
              {languagesFor(problem, device_)
                .map((l) => LANGUAGE_NAMES[l])
                .join(', ')}{' '}
              <span className="text-slate-500 dark:text-slate-400">
                (the agent reads the reference and writes a ModelNew file with the same constructor and forward)
              </span>
            </p>
          ) : null}
          {agents.length > 0 ? (
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectField
                label="Agent"
                value={provider}
                onChange={(e) => {
                  const next = agents.find((a) => a.provider === e.target.value);
                  setProvider(e.target.value);
                  setModel(next?.default_model ?? next?.models[0] ?? '');
                }}
              >
                {agents.map((a) => (
                  <option key={a.provider} value={a.provider}>
                    {a.provider}
                  </option>
                ))}
              </SelectField>
              <SelectField
                label="Model"
                value={model}
                onChange={(e) => setModel(e.target.value)}
                disabled={!agent?.models.length}
              >
                {(agent?.models ?? []).length === 0 ? <option value="">Default</option> : null}
                {(agent?.models ?? []).map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </SelectField>
            </div>
          ) : null}
          {agents.length > 0 ? <AgentOfferNote providers={agents.map((a) => a.provider)} /> : null}
          <TextArea
            label="Instruction"
            hint="optional"
            rows={5}
            value={instruction}
            maxLength={10_000}
            placeholder="e.g. Vectorise the inner loop and block for the L2 cache."
            onChange={(e) => setInstruction(e.target.value)}
          />
          <AttemptsField
            id="session-attempts"
            label="Number of attempts"
            value={attempts}
            showError={checkAttempts}
            onChange={(v) => {
              setAttempts(v);
              setCheckAttempts(true);
            }}
          />
          <Button
            id="start-session"
            type="submit"
            variant="primary"
            className="w-full"
            disabled={busy || !problemName || !device}
          >
            {busy ? 'Starting…' : 'Start session'}
          </Button>
          <FormMessage error={failure} />
        </Card>
      </form>
      <Card title="Your sessions" className="mt-8">
        <QueryState data={sessions.data} error={sessions.error}>
          {(list) => (
            <SessionList
              sessions={list.data}
              empty={
                <EmptyState
                  icon="sessions"
                  title="No sessions yet"
                  action={{ label: 'Start your first session', focus: 'start-session' }}
                >
                  Your sessions show here. Pick a problem and a device above, then start one.
                </EmptyState>
              }
            />
          )}
        </QueryState>
      </Card>
    </>
  );
}
