// `/sweeps` ('Sweeps'): start a sweep (agent, model, problem set, attempts) and list yours with their fast_p so far;
// pick two to compare.
import { type CreateSweepRequest, errorMessage, PAGE_SIZE } from '@kernelforge/sdk';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { navigate } from 'wouter/use-browser-location';
import { AgentOfferNote } from '../components/AgentOfferNote';
import { AppLink } from '../components/AppLink';
import { AttemptsField } from '../components/AttemptsField';
import { Button, buttonClass } from '../components/Button';
import { Card } from '../components/Card';
import { DataTable } from '../components/DataTable';
import { DeviceSelect } from '../components/DeviceSelect';
import { EmptyState } from '../components/EmptyState';
import { SelectField, TextArea, TextField } from '../components/fields';
import { FormMessage } from '../components/FormMessage';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { StatusBadge } from '../components/StatusBadge';
import { useDevices } from '../hooks/useDevices';
import { useProblems } from '../hooks/useProblems';
import { useSettings } from '../hooks/useSettings';
import { useSweepMutations, useSweepSets, useSweeps } from '../hooks/useSweeps';
import { formatDate, formatPercent, formatSpeedup } from '../lib/format';
import { attemptsError, problemListError } from '../lib/formChecks';

export const FAST_P_HELP =
  'fast_p is the share of ALL the problems of a sweep solved correctly whose speedup’s 95% interval lies above p (fast_0: the share correct): a speedup within noise of p, like 1.02x (0.95x-1.40x) for p = 1, does not count. KernelBench’s rule, the point speedup above p, is shown beside it. Each problem counts from one ranked re-run of its session’s best attempt on fresh secret inputs; a problem not finished counts as not correct.';

function StartSweepForm() {
  const settings = useSettings();
  const devices = useDevices();
  const problems = useProblems();
  const [busy, setBusy] = useState(false);
  const sweeps = useSweepMutations();
  /** Each error under the field it is about; what the server refuses under the Start button, where it was pressed. */
  const [checked, setChecked] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const sets = useSweepSets();
  const setOptions = sets.data?.data.map((s) => s.name) ?? [
    'c-abi',
    'pytorch-level1',
    'pytorch-level2',
    'pytorch-level3',
  ];
  const agents = settings.data?.agents ?? [];
  const [provider, setProvider] = useState('tuner');
  const [model, setModel] = useState('');
  const [set, setSet] = useState<string>('c-abi');
  const [names, setNames] = useState('');
  const [device, setDevice] = useState('');
  const [attempts, setAttempts] = useState('2');
  const [instruction, setInstruction] = useState('');
  const [name, setName] = useState('');
  const offer = agents.find((a) => a.provider === provider);
  const deviceList = devices.data?.data ?? [];
  const chosenDevice = device || deviceList.find((d) => d.kind === 'cpu')?.id || deviceList[0]?.id || '';

  const list = names
    .split(/[\s,]+/)
    .map((n) => n.trim())
    .filter(Boolean);
  const catalogue = problems.data?.data.map((p) => p.name);
  const namesError = set === 'list' && checked && catalogue ? problemListError(list, catalogue) : null;
  const attemptsProblem = checked ? attemptsError(attempts) : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if ((set === 'list' && catalogue && problemListError(list, catalogue)) || attemptsError(attempts)) {
      document.getElementById(attemptsError(attempts) ? 'sweep-attempts' : 'sweep-problems')?.focus();
      return;
    }
    const body: CreateSweepRequest = {
      agent: { provider, ...(model ? { model } : {}) },
      device: chosenDevice,
      problems: set === 'list' ? list : { set },
      attempts_per_problem: Number(attempts),
      ...(instruction.trim() ? { instruction: instruction.trim() } : {}),
      ...(name.trim() ? { name: name.trim() } : {}),
    };
    setBusy(true);
    setFailure(null);
    try {
      const sweep = await sweeps.create(body);
      toast.success('Sweep started');
      navigate(`/sweeps/${sweep.id}`);
    } catch (error) {
      setFailure(errorMessage(error, 'Could not start the sweep'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="Start a sweep">
      <form className="grid gap-4 sm:grid-cols-2" onSubmit={submit} noValidate aria-label="Start a sweep">
        <SelectField
          id="sweep-agent"
          label="Agent"
          value={provider}
          onChange={(e) => {
            setProvider(e.target.value);
            setModel('');
          }}
        >
          {(agents.length ? agents : [{ provider: 'tuner', models: [], default_model: null }]).map((a) => (
            <option key={a.provider} value={a.provider}>
              {a.provider}
            </option>
          ))}
        </SelectField>
        <SelectField label="Model" value={model} onChange={(e) => setModel(e.target.value)}>
          <option value="">{offer?.default_model ? `Default (${offer.default_model})` : 'Default'}</option>
          {(offer?.models ?? []).map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </SelectField>
        <div className="sm:col-span-2">
          <AgentOfferNote providers={agents.length ? agents.map((a) => a.provider) : ['tuner']} />
        </div>
        <SelectField label="Problems" value={set} onChange={(e) => setSet(e.target.value)}>
          {setOptions.map((s) => (
            <option key={s} value={s}>
              Set {s}
            </option>
          ))}
          <option value="list">A list of problems…</option>
        </SelectField>
        {set === 'list' ? (
          <div>
            <TextField
              id="sweep-problems"
              label="Problem names"
              hint="separated by spaces or commas"
              value={names}
              placeholder="19_ReLU 20_LeakyReLU"
              aria-invalid={namesError ? true : undefined}
              aria-describedby={namesError ? 'sweep-problems-error' : undefined}
              onChange={(e) => setNames(e.target.value)}
            />
            {namesError ? (
              <p
                id="sweep-problems-error"
                className="mt-1 text-sm text-rose-700 dark:text-rose-300"
                data-testid="field-error"
              >
                {namesError}
              </p>
            ) : null}
          </div>
        ) : null}
        <AttemptsField
          id="sweep-attempts"
          label="Attempts per problem"
          value={attempts}
          showError={attemptsProblem !== null}
          onChange={setAttempts}
        />
        <DeviceSelect devices={deviceList} value={chosenDevice} onChange={setDevice} />
        <TextField label="Name" hint="optional" value={name} onChange={(e) => setName(e.target.value)} />
        <div className="sm:col-span-2">
          <TextArea
            label="Instruction"
            hint="optional; every session starts from it"
            rows={2}
            value={instruction}
            onChange={(e) => setInstruction(e.target.value)}
          />
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" variant="primary" disabled={busy || !chosenDevice}>
            {busy ? 'Starting…' : 'Start sweep'}
          </Button>
          <div className="mt-2">
            <FormMessage error={failure} />
          </div>
          <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
            One ordinary agent session per problem; they count against your daily session quota and show in My sessions.
          </p>
        </div>
      </form>
    </Card>
  );
}

export default function SweepsPage() {
  const [offset, setOffset] = useState(0);
  const sweeps = useSweeps(offset);
  const [picked, setPicked] = useState<string[]>([]);
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));
  const count = sweeps.data?.count ?? 0;
  return (
    <>
      <PageHeader
        title="Sweeps"
        subtitle={FAST_P_HELP}
        actions={
          <AppLink href="/agents" className={buttonClass()}>
            Agents leaderboard
          </AppLink>
        }
      />
      <div className="grid gap-6">
        <StartSweepForm />
        <Card
          title="Your sweeps"
          actions={
            picked.length === 2 ? (
              <AppLink href={`/sweeps/compare?a=${picked[0]}&b=${picked[1]}`} className={buttonClass('primary', 'sm')}>
                Compare the two
              </AppLink>
            ) : (
              <span className="text-xs text-slate-500">Tick two to compare them</span>
            )
          }
        >
          <QueryState data={sweeps.data} error={sweeps.error} label="Loading sweeps…">
            {(list) =>
              list.data.length === 0 ? (
                <EmptyState
                  icon="sweeps"
                  title="No sweeps yet"
                  action={{ label: 'Start your first sweep', focus: 'sweep-agent' }}
                >
                  A sweep runs one agent over a set of problems and scores it by fast_p.
                </EmptyState>
              ) : (
                <div className="overflow-x-auto">
                  <DataTable
                    variant="compact"
                    rows={list.data}
                    rowKey={(s) => s.id}
                    columns={[
                      {
                        id: 'compare',
                        srHeader: 'Compare',
                        cell: (s) => (
                          <input
                            type="checkbox"
                            aria-label={`Compare ${s.name}`}
                            checked={picked.includes(s.id)}
                            onChange={() => toggle(s.id)}
                          />
                        ),
                      },
                      {
                        id: 'sweep',
                        header: 'Sweep',
                        cell: (s) => <AppLink href={`/sweeps/${s.id}`}>{s.name}</AppLink>,
                      },
                      {
                        id: 'agent',
                        header: 'Agent',
                        cell: (s) => `${s.agent.provider}${s.agent.model ? ` ${s.agent.model}` : ''}`,
                      },
                      { id: 'status', header: 'Status', cell: (s) => <StatusBadge status={s.status} /> },
                      {
                        id: 'done',
                        header: 'Done',
                        align: 'right',
                        cell: (s) => `${s.problems_done}/${s.problem_count}`,
                      },
                      { id: 'fast0', header: 'fast_0', align: 'right', cell: (s) => formatPercent(s.fast_p['0']) },
                      { id: 'fast1', header: 'fast_1', align: 'right', cell: (s) => formatPercent(s.fast_p['1']) },
                      {
                        id: 'geomean',
                        header: 'Geomean',
                        align: 'right',
                        cell: (s) => formatSpeedup(s.geomean_speedup),
                      },
                      { id: 'started', header: 'Started', cell: (s) => formatDate(s.created_at) },
                    ]}
                  />
                </div>
              )
            }
          </QueryState>
          {count > PAGE_SIZE ? (
            <nav aria-label="Pages" className="mt-4 flex items-center gap-3 text-sm">
              <Button size="sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
                Previous
              </Button>
              <Button size="sm" disabled={offset + PAGE_SIZE >= count} onClick={() => setOffset(offset + PAGE_SIZE)}>
                Next
              </Button>
            </nav>
          ) : null}
        </Card>
      </div>
    </>
  );
}
