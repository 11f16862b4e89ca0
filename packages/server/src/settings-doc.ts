// Every setting the server and the runner read, with its default and meaning: the source of docs/operations.md's tables.
import { EnvSchema } from './config.js';

export interface SettingDoc {
  /** Markdown; only for variables whose schema has no default of its own (that one is shown, so it cannot drift). */
  default?: string;
  meaning: string;
}

type ServerVariable = keyof typeof EnvSchema.shape;

/** One entry per variable of the server's config schema: the type checker refuses a missing or extra one. */
export const SERVER_SETTINGS = {
  PORT: { meaning: 'HTTP port' },
  HOST: {
    default: '`127.0.0.1`',
    meaning:
      "address to bind; loopback only by default. Set `0.0.0.0` (or an interface's address) to serve other machines, ideally behind a TLS proxy",
  },
  KFORGE_DATA_DIR: {
    default: '`./.kforge`',
    meaning: 'data directory: the PGlite database (`pgdata/`) and the generated secret',
  },
  DATABASE_URL: {
    default: 'unset',
    meaning: '`postgres://...` to use a Postgres server instead of the embedded PGlite',
  },
  KFORGE_SECRET: {
    default: 'generated',
    meaning:
      'key that signs access tokens; if unset, generated once into `<data dir>/secret` (mode 0600). Set it explicitly when running several replicas',
  },
  KFORGE_PUBLIC_URL: {
    default: '`http://localhost:$PORT`',
    meaning: 'where users reach the web app; mail links point here',
  },
  SMTP_URL: {
    default: 'unset',
    meaning:
      "e.g. `smtps://user:pass@smtp.example.com:465`; unset: mail is logged and kept in the outbox (`GET /api/v1/admin/outbox`, superusers; the web's `/admin/outbox`)",
  },
  MAIL_FROM: { default: '`Kernelforge <no-reply@<public host>>`', meaning: 'sender of every mail' },
  KFORGE_ADMIN_EMAIL: {
    default: 'unset',
    meaning: 'first superuser, created on the first start with an empty database',
  },
  KFORGE_ADMIN_PASSWORD: {
    default: 'unset',
    meaning:
      "that superuser's password; without it (or without both) the log shows a one-time sign-in link (valid 24 h, printed again at each start until the superuser has signed in) for `KFORGE_ADMIN_EMAIL` or `admin@localhost`",
  },
  GOOGLE_CLIENT_ID: {
    default: 'unset',
    meaning: 'enables Google sign-in (the `id_token` audience); also shown to the web in settings',
  },
  GOOGLE_ISSUER: { default: '`https://accounts.google.com`', meaning: 'expected `iss` of Google id_tokens' },
  GOOGLE_JWKS_URL: { default: '`https://www.googleapis.com/oauth2/v3/certs`', meaning: "Google's signing keys" },
  POSTHOG_KEY: { default: 'unset', meaning: 'product analytics project key, passed to the web app in settings' },
  POSTHOG_HOST: { default: 'unset', meaning: 'product analytics host, passed to the web app in settings' },
  KFORGE_FEEDBACK_SURVEY_ID: { default: 'unset', meaning: 'feedback survey id in settings' },
  KFORGE_WAITLIST_SURVEY_ID: { default: 'unset', meaning: 'waitlist survey id in settings' },
  KFORGE_TERMS_URL: { default: 'unset', meaning: 'settings `page_urls.terms_of_service`' },
  KFORGE_PRIVACY_URL: { default: 'unset', meaning: 'settings `page_urls.privacy_policy`' },
  KFORGE_CONTACT_URL: { default: 'unset', meaning: 'settings `page_urls.contact_us`' },
  KFORGE_LLM_PROVIDER: { default: 'unset', meaning: '`openai` or `anthropic`; unset: only the tuner agent is offered' },
  KFORGE_LLM_BASE_URL: { default: 'unset', meaning: 'the LLM endpoint (OpenAI-compatible or Anthropic base URL)' },
  KFORGE_LLM_API_KEY: { default: 'unset', meaning: 'the LLM API key' },
  KFORGE_LLM_MODEL: { default: 'unset', meaning: 'the LLM model name' },
  KFORGE_LOCAL_RUNNER: {
    meaning: "run the in-process runner for this machine's devices (`0`/`false`/`off` to turn off)",
  },
  KFORGE_ALLOW_UNSANDBOXED: {
    meaning:
      "`1` runs candidates without bubblewrap when it is missing (the in-process runner; `kforge-runner` reads the same variable). Unsafe: a candidate is arbitrary code with this user's rights. Anything but `1` is off. For a laptop without user namespaces, never for a shared server",
  },
  KFORGE_RUNNER_TOKEN: {
    default: 'unset',
    meaning: 'token standalone `kforge-runner` processes present to `/api/v1/runner/...`',
  },
  KFORGE_WEB_DIST: { default: '`packages/web/dist`', meaning: 'the built web app served at `/`' },
  KFORGE_PROBLEMS_DIR: { default: '`<repo>/problems`', meaning: 'the problem catalogue' },
  KFORGE_PROBLEM_DIRS: {
    default: 'unset',
    meaning:
      'extra folders of PyTorch problems in the KernelBench format, colon-separated; each a folder of `.py` files or one holding `level1/`, `level2/`, `level3/` (the level comes from the folder). Loaded after the C-ABI catalogue and the built-in `problems/pytorch/`; a file that fails to load is logged with its error and skipped. Check a folder first with `kforge-server problems check DIR`',
  },
  KFORGE_TORCH_BUDGET_MB: {
    default: '`256`',
    meaning:
      "pytorch problems on `cpu`: the module's integer size constants are halved until inputs + outputs + parameters fit in this many MiB (test cases use 8 MiB and 1 MiB)",
  },
  KFORGE_TORCH_CUDA_BUDGET_MB: { default: '`4096`', meaning: 'the same for CUDA devices' },
  KFORGE_ACCESS_TOKEN_DAYS: { meaning: 'lifetime of access tokens' },
  KFORGE_SIGNIN_PER_MINUTE: {
    meaning:
      'password sign-in throttle (`0` = off): failures per (account, client address) per minute, answered 429 to that address only; 5x that in attempts per address; past 5x that in failures per account from all addresses, attempts on the account from addresses it has not signed in from take turns, one a second (the owner waits, is never locked out). Token sign-ins (magic link, Google, register) are limited to this many per address per minute',
  },
  KFORGE_MAIL_PER_HOUR: {
    meaning:
      "mail throttle (`0` = off): requests per (recipient, client address) per hour (429), 5x that per address; per recipient from all addresses, once this many mails went out in the hour, at most one more every 5 minutes (the answer stays the same, so the newest link in the owner's inbox is always young enough to use, and the recipient cannot be bombed)",
  },
  KFORGE_DAILY_SESSIONS: { meaning: 'per-user daily quota of agent sessions started' },
  KFORGE_DAILY_ATTEMPTS: { meaning: 'per-user daily quota of attempts generated' },
  KFORGE_DAILY_SUBMISSIONS: { meaning: 'per-user daily quota of submissions' },
  KFORGE_DAILY_TEST_RUNS: {
    meaning:
      'per-user daily quota of test runs ("Run tests": benchmark mode, never ranked); at most 2 unfinished at once',
  },
  KFORGE_LOG_LEVEL: { default: '`info`', meaning: '`debug`, `info`, `warn`, `error`, `silent`' },
  KFORGE_LOG_FORMAT: {
    meaning:
      '`json`: one JSON object a line (`time`, `level`, `msg`, then fields; `request_id` while serving a request); `text`: a line for a person',
  },
  KFORGE_ACCESS_LOG: {
    meaning:
      'an access log line (`msg: "request"`, at `info`) per request: `1` (health probes and metrics scrapes left out), `all`, or `0` (none)',
  },
  KFORGE_TRUST_PROXY: {
    meaning: 'take the client address from `X-Forwarded-For` (only behind a proxy that sets it); used by rate limits',
  },
  KFORGE_JOB_LEASE_SECONDS: {
    meaning:
      'how long a claimed job stays leased without a heartbeat (holders beat every third of it); an expired lease runs again elsewhere',
  },
  KFORGE_JOB_MAX_TRIES: {
    meaning:
      'tries per job (generation or evaluation) before it is dead-lettered and its attempt or submission fails with the reason',
  },
  KFORGE_REAPER_INTERVAL_MS: { meaning: 'how often each replica looks for expired leases' },
  KFORGE_GENERATE_WORKERS: { meaning: 'agent workers (generate jobs run at once) per server process' },
  KFORGE_SESSION_MAX_ATTEMPTS: { meaning: "a session's budget of attempts in all, across its instructions" },
  KFORGE_SESSION_MAX_RUNNER_SECONDS: { meaning: "a session's budget of evaluation (runner) seconds in all" },
  KFORGE_RUNNER_STALE_SECONDS: { meaning: 'a runner not seen for this long no longer counts as serving its devices' },
  KFORGE_RUNNER_HEARTBEAT_SECONDS: {
    meaning:
      'how often runners are told to beat while they hold a job (or a third of `KFORGE_JOB_LEASE_SECONDS`, if shorter); the register answer carries it',
  },
  KFORGE_RUNNER_DEAD_HEARTBEATS: {
    meaning:
      'a runner silent for this many heartbeat intervals is dead: it leaves the runner list and /devices, and the jobs it holds are re-queued at once (default: 25 s)',
  },
  KFORGE_RUNNER_TIMING: {
    meaning:
      "the in-process runner's timing rules; `quick` (few samples, unstable numbers, never re-timed) is for tests only",
  },
  KFORGE_RUNNER_WORK_DIR: {
    default: '`$TMPDIR/kforge-runner-<uid>-<hash of the data dir>`',
    meaning:
      "the in-process runner's build cache and job folders; kept outside the data directory on purpose, so sandboxed candidates cannot reach the database or the secret. One server's own: created 0700 (0711 when the server runs as root, so the sandbox user, nobody, can pass through to its job folder without listing it), and the server refuses to start when it is a link or belongs to another user",
  },
  KFORGE_PYTHON: {
    default: '`/usr/bin/python3`',
    meaning:
      "the interpreter (with PyTorch) the in-process runner's torch backend, the problem inspector and device discovery run; `kforge-runner` reads the same variable",
  },
  KFORGE_JOB_CGROUP: {
    default: 'on (when root)',
    meaning:
      '`0`: the in-process runner does not put each job in its own cgroup; `kforge-runner` reads the same variable (see below)',
  },
  KFORGE_SSE_KEEPALIVE_MS: {
    meaning: "interval of the `: keep-alive` comment on idle event streams (keep it under the balancer's idle timeout)",
  },
  KFORGE_SSE_STREAMS_PER_USER: {
    meaning:
      'live-event streams one user may hold open on one server process; the next is answered 429 (`0` = no limit)',
  },
  KFORGE_METRICS_TOKEN: {
    default: 'unset',
    meaning: 'bearer token Prometheus sends to `GET /metrics`; unset: `/metrics` answers 404',
  },
} satisfies Record<ServerVariable, SettingDoc>;

/** What `kforge-runner` (and the runner code inside the server) reads from the environment itself. */
export const RUNNER_SETTINGS: Record<string, SettingDoc> = {
  KFORGE_SERVER_URL: {
    default: 'unset',
    meaning:
      '`kforge-runner`: the server(s) to claim jobs from, comma-separated for several replicas (or one load balancer URL); `--server URL` (repeatable) wins. On a connection error, a timeout or a 5xx the runner moves on to the next URL; a 4xx is an answer and is not retried elsewhere',
  },
  KFORGE_RUNNER_TOKEN: {
    default: 'unset',
    meaning: "`kforge-runner`: the servers' `KFORGE_RUNNER_TOKEN`; `--token T` wins",
  },
  KFORGE_RUNNER_TOKEN_FILE: {
    default: 'unset',
    meaning:
      '`kforge-runner`: a file holding the runner token (a Docker secret; one trailing newline dropped), read when neither `--token` nor `KFORGE_RUNNER_TOKEN` is given',
  },
  KFORGE_CPU_PEAKS_SHARE: {
    default: 'unset',
    meaning:
      "test suites only (scripts/test.mjs sets it): a file through which a test run's processes share one start-up peaks run of the cpu instead of each measuring its own, and their latest re-measurement, which a process takes instead of re-measuring within its interval (a result above the peaks always measures again); the record is keyed by the peaks program and the cpu",
  },
  KFORGE_HARNESS_CACHE_SHARE: {
    default: 'unset',
    meaning:
      "test suites only (scripts/test.mjs sets it): one folder of built C harnesses for a test run's processes instead of one in each runner's work folder; each entry is named by the hash of everything it is built from",
  },
  KFORGE_CUDA_PEAKS: {
    default: 'measured',
    meaning:
      "`table`: a cuda device's peaks come from the built-in table of cards instead of being measured on the device when the runner starts (a copy kernel for bandwidth, FMA chains for fp32)",
  },
  KFORGE_CUDA_BUSY_US: {
    default: '`200`',
    meaning:
      "cuda: microseconds of busy kernel queued before each timed call's cache flush, so the GPU is not idle (and its clocks not down) when the call starts",
  },
  KFORGE_CUDA_PROBE: {
    default: 'on',
    meaning:
      "`off`: cuda calls are timed by the candidate process's own events alone, without the harness's probe of the outputs (bench/cuda.mjs uses it to show what the probe catches); every such result is flagged for review",
  },
  KFORGE_ALLOW_UNSANDBOXED: {
    default: 'off',
    meaning:
      '`1` lets `kforge-runner` (and the in-process runner) run candidates without bubblewrap when it is missing; otherwise `kforge-runner` refuses to start there. Unsafe: candidates are arbitrary code',
  },
  KFORGE_TORCH_COMPILE_TIMEOUT_S: {
    default: '`120`',
    meaning:
      "the compile limit of a pytorch candidate that builds C++ with `load_inline` (its import, in a sandbox); the C backend's limit by default",
  },
  KFORGE_TORCH_FACTS_TIMEOUT_S: {
    default: '`90`',
    meaning:
      'the limit of the one extra, untimed torch.profiler run of an accepted pytorch candidate (its operators or CUDA kernels and Triton metadata in the profile); never part of the timed figures or the verdict',
  },
  KFORGE_NCU: {
    default: 'on where ncu is installed',
    meaning:
      "`0`: no Nsight Compute run of accepted cuda attempts (their profile says why); otherwise one extra, untimed run under ncu where the driver lets the runner's user read the counters",
  },
  KFORGE_PYTHON: {
    default: '`/usr/bin/python3`',
    meaning:
      'the interpreter (with PyTorch) the torch backend and the problem inspector run; a runner whose interpreter cannot import torch reports pytorch problems unavailable on its devices, with why',
  },
  KFORGE_JOB_CGROUP: {
    default: 'on (when root)',
    meaning:
      "`0`: do not put each job in its own cgroup (a runner running as root otherwise does, so a job's processes are killed together and its memory is capped); process-group and pid-namespace kills only",
  },
  KFORGE_TIMING_LOCK_DIR: {
    default: '`/run/lock` (else `$TMPDIR`)',
    meaning:
      'folder of the host-wide lock files a runner holds while it times a candidate, so two runners (or servers) on one machine never time at the same moment; every runner on a host must share it',
  },
};

/** The defaults the schema itself gives (numbers, switches, enums), as the table shows them. */
function schemaDefault(name: ServerVariable): string | undefined {
  const value = (EnvSchema.parse({}) as Record<string, unknown>)[name];
  if (value === undefined) return undefined;
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return `\`${String(value)}\``;
}

function table(rows: Array<[string, string, string]>): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  return [
    '| variable | default | meaning |',
    '|---|---|---|',
    ...rows.map(([n, d, m]) => `| \`${n}\` | ${cell(d)} | ${cell(m)} |`),
  ].join('\n');
}

/** The server's table: every variable of its config schema, in schema order. */
export function renderServerSettings(): string {
  const rows = (Object.keys(EnvSchema.shape) as ServerVariable[]).map((name): [string, string, string] => {
    const doc: SettingDoc = SERVER_SETTINGS[name];
    const fromSchema = schemaDefault(name);
    if (fromSchema !== undefined && doc.default !== undefined)
      throw new Error(`${name}: the schema has a default; drop the documented one`);
    return [name, fromSchema ?? doc.default ?? 'unset', doc.meaning];
  });
  return table(rows);
}

export function renderRunnerSettings(): string {
  return table(Object.entries(RUNNER_SETTINGS).map(([n, d]) => [n, d.default ?? 'unset', d.meaning]));
}
