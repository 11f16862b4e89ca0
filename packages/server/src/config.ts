// Configuration: every environment variable parsed once by one zod schema, then passed around as `Config`.
import { problemDirsFromEnv, runnerSettingsFromEnv, torchBudgets } from '@kernelforge/runner';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** A start-up failure the operator can fix from its message alone (printed without a stack trace). */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** The folder holding packages/server/package.json, found by walking up (works from src/ and from a bundled dist/). */
export function serverPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && readFileSync(pkg, 'utf8').includes('"@kernelforge/server"')) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('packages/server/package.json not found above the server code');
    dir = parent;
  }
}

// Empty strings count as unset, so `FOO=` in an env file means "use the default".
const opt = z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.string().optional());
const int = (fallback: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce.number().int().min(0).default(fallback),
  );
// Durations and budgets: positive, fractions allowed (tests use sub-second leases).
const pos = (fallback: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce.number().positive().default(fallback),
  );
const bool = (fallback: boolean) =>
  z.preprocess((v) => {
    if (typeof v !== 'string' || v.trim() === '') return undefined;
    return !['0', 'false', 'no', 'off'].includes(v.trim().toLowerCase());
  }, z.boolean().default(fallback));

export const EnvSchema = z.object({
  PORT: int(8000),
  HOST: opt,
  KFORGE_DATA_DIR: opt,
  DATABASE_URL: opt,
  KFORGE_SECRET: opt,
  KFORGE_PUBLIC_URL: opt,
  SMTP_URL: opt,
  MAIL_FROM: opt,
  KFORGE_ADMIN_EMAIL: opt,
  KFORGE_ADMIN_PASSWORD: opt,
  GOOGLE_CLIENT_ID: opt,
  GOOGLE_ISSUER: opt,
  GOOGLE_JWKS_URL: opt,
  POSTHOG_KEY: opt,
  POSTHOG_HOST: opt,
  KFORGE_FEEDBACK_SURVEY_ID: opt,
  KFORGE_WAITLIST_SURVEY_ID: opt,
  KFORGE_TERMS_URL: opt,
  KFORGE_PRIVACY_URL: opt,
  KFORGE_CONTACT_URL: opt,
  KFORGE_LLM_PROVIDER: opt,
  KFORGE_LLM_BASE_URL: opt,
  KFORGE_LLM_API_KEY: opt,
  KFORGE_LLM_MODEL: opt,
  KFORGE_LOCAL_RUNNER: bool(true),
  // Exactly '1', as the runner's own entry point reads it: a safety switch is not turned off by 'yes'.
  KFORGE_ALLOW_UNSANDBOXED: z.preprocess((v) => v === '1', z.boolean()),
  KFORGE_RUNNER_TOKEN: opt,
  KFORGE_WEB_DIST: opt,
  KFORGE_PROBLEMS_DIR: opt,
  KFORGE_PROBLEM_DIRS: opt,
  KFORGE_TORCH_BUDGET_MB: opt,
  KFORGE_TORCH_CUDA_BUDGET_MB: opt,
  KFORGE_ACCESS_TOKEN_DAYS: int(8),
  KFORGE_SIGNIN_PER_MINUTE: int(20),
  KFORGE_MAIL_PER_HOUR: int(10),
  KFORGE_DAILY_SESSIONS: int(200),
  KFORGE_DAILY_ATTEMPTS: int(2000),
  KFORGE_DAILY_SUBMISSIONS: int(200),
  KFORGE_DAILY_TEST_RUNS: int(500),
  KFORGE_LOG_LEVEL: opt,
  KFORGE_LOG_FORMAT: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.enum(['json', 'text']).default('json'),
  ),
  KFORGE_ACCESS_LOG: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v?.toString().trim().toLowerCase()),
    z.enum(['1', '0', 'on', 'off', 'true', 'false', 'yes', 'no', 'all']).default('1'),
  ),
  KFORGE_TRUST_PROXY: bool(false),
  KFORGE_JOB_LEASE_SECONDS: pos(60),
  KFORGE_JOB_MAX_TRIES: pos(3),
  KFORGE_REAPER_INTERVAL_MS: pos(2000),
  KFORGE_GENERATE_WORKERS: pos(2),
  KFORGE_SESSION_MAX_ATTEMPTS: pos(200),
  KFORGE_SESSION_MAX_RUNNER_SECONDS: pos(3600),
  KFORGE_RUNNER_STALE_SECONDS: pos(90),
  KFORGE_RUNNER_HEARTBEAT_SECONDS: pos(10),
  KFORGE_RUNNER_DEAD_HEARTBEATS: pos(2.5),
  KFORGE_RUNNER_TIMING: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.enum(['default', 'quick']).default('default'),
  ),
  KFORGE_RUNNER_WORK_DIR: opt,
  KFORGE_PYTHON: opt,
  KFORGE_JOB_CGROUP: opt,
  KFORGE_SSE_KEEPALIVE_MS: pos(15_000),
  KFORGE_SSE_STREAMS_PER_USER: int(20),
  KFORGE_METRICS_TOKEN: opt,
});

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

/**
 * The environment turned into the configuration, with no side effect (it reads the server's package root and the
 * working directory, nothing else). `Config` is its output type, so the shape is written once.
 */
export const ConfigSchema = EnvSchema.transform((e) => {
  const root = serverPackageRoot();
  const dataDir = resolve(e.KFORGE_DATA_DIR ?? './.kforge');
  const publicUrl = (e.KFORGE_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const level = LOG_LEVELS.find((l) => l === e.KFORGE_LOG_LEVEL) ?? 'info';
  // Whole seconds, at least 1 (the register answer's unit), at most a third of the lease.
  const heartbeat = Math.max(
    1,
    Math.floor(Math.min(e.KFORGE_RUNNER_HEARTBEAT_SECONDS, e.KFORGE_JOB_LEASE_SECONDS / 3)),
  );
  const runnerSettings = runnerSettingsFromEnv({
    KFORGE_PYTHON: e.KFORGE_PYTHON,
    KFORGE_JOB_CGROUP: e.KFORGE_JOB_CGROUP,
  });
  const budgets: { cpu: number; cuda: number } = torchBudgets({
    KFORGE_TORCH_BUDGET_MB: e.KFORGE_TORCH_BUDGET_MB,
    KFORGE_TORCH_CUDA_BUDGET_MB: e.KFORGE_TORCH_CUDA_BUDGET_MB,
  });
  return {
    port: e.PORT,
    /** Loopback unless the operator says otherwise: a fresh install is not reachable from the network by accident. */
    host: e.HOST ?? '127.0.0.1',
    /** Absolute path of the data directory (PGlite files, the generated secret). */
    dataDir,
    /** Postgres connection string; null means the embedded PGlite in `<dataDir>/pgdata` (or `memory://`). */
    databaseUrl: e.DATABASE_URL ?? null,
    /**
     * HS256 key for access tokens: KFORGE_SECRET, else null here and `<dataDir>/secret` (generated once, mode 0600)
     * once `settleSecret` has run at start-up (`createContext` does; `AppContext.config` always has one).
     */
    secret: (e.KFORGE_SECRET ?? null) as string | null,
    /** Base URL users reach the web app at, no trailing slash; mail links point here. */
    publicUrl,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM ?? `Kernelforge <no-reply@${new URL(publicUrl).hostname}>`,
    adminEmail: e.KFORGE_ADMIN_EMAIL?.trim().toLowerCase() ?? null,
    adminPassword: e.KFORGE_ADMIN_PASSWORD ?? null,
    google: {
      clientId: e.GOOGLE_CLIENT_ID ?? null,
      issuer: e.GOOGLE_ISSUER ?? 'https://accounts.google.com',
      jwksUrl: e.GOOGLE_JWKS_URL ?? 'https://www.googleapis.com/oauth2/v3/certs',
    },
    posthog: { key: e.POSTHOG_KEY ?? null, host: e.POSTHOG_HOST ?? null },
    surveys: { feedback: e.KFORGE_FEEDBACK_SURVEY_ID ?? null, waitlist: e.KFORGE_WAITLIST_SURVEY_ID ?? null },
    pageUrls: {
      termsOfService: e.KFORGE_TERMS_URL ?? null,
      privacyPolicy: e.KFORGE_PRIVACY_URL ?? null,
      contactUs: e.KFORGE_CONTACT_URL ?? null,
    },
    llm: {
      provider: e.KFORGE_LLM_PROVIDER ?? null,
      baseUrl: e.KFORGE_LLM_BASE_URL ?? null,
      apiKey: e.KFORGE_LLM_API_KEY ?? null,
      model: e.KFORGE_LLM_MODEL ?? null,
    },
    localRunner: e.KFORGE_LOCAL_RUNNER,
    runnerToken: e.KFORGE_RUNNER_TOKEN ?? null,
    webDist: resolve(e.KFORGE_WEB_DIST ?? join(root, '..', 'web', 'dist')),
    problemsDir: resolve(e.KFORGE_PROBLEMS_DIR ?? join(root, '..', '..', 'problems')),
    /** KFORGE_PROBLEM_DIRS: operators' folders of KernelBench-format (pytorch) problems. */
    problemDirs: problemDirsFromEnv({ KFORGE_PROBLEM_DIRS: e.KFORGE_PROBLEM_DIRS }).map((d) => resolve(d)),
    /** Bytes pytorch problems' sizes are scaled to fit, per device kind (KFORGE_TORCH_BUDGET_MB, ..._CUDA_...). */
    torchBudgets: budgets,
    accessTokenDays: e.KFORGE_ACCESS_TOKEN_DAYS || 8,
    /** Rate limits (in memory, per server process): sign-in attempts per IP per minute, mails per address per hour. */
    rateLimits: { signinPerMinute: e.KFORGE_SIGNIN_PER_MINUTE, mailPerHour: e.KFORGE_MAIL_PER_HOUR },
    /** Per-user daily quotas the product routes enforce. */
    dailyLimits: {
      sessions: e.KFORGE_DAILY_SESSIONS,
      attempts: e.KFORGE_DAILY_ATTEMPTS,
      submissions: e.KFORGE_DAILY_SUBMISSIONS,
      /** "Run tests" (benchmark-mode test runs of a source): their own quota, apart from submissions'. */
      testRuns: e.KFORGE_DAILY_TEST_RUNS,
    },
    logLevel: level,
    /** One JSON object a line (default), or `text` for a person at a terminal. */
    logFormat: e.KFORGE_LOG_FORMAT,
    /** An access log line per request: `on` (health probes and metrics scrapes left out), `all`, or `off`. */
    accessLog: (['0', 'off', 'false', 'no'].includes(e.KFORGE_ACCESS_LOG)
      ? 'off'
      : e.KFORGE_ACCESS_LOG === 'all'
        ? 'all'
        : 'on') as 'on' | 'all' | 'off',
    /** Take the client address from X-Forwarded-For (only behind a proxy that sets it), for rate limits. */
    trustProxy: e.KFORGE_TRUST_PROXY,
    /** The leased job queue and the workers that drain it. */
    jobs: {
      /** How long a claimed job stays leased without a heartbeat. */
      leaseSeconds: e.KFORGE_JOB_LEASE_SECONDS,
      /** Tries per job before it is dead-lettered. */
      maxTries: Math.max(1, Math.round(e.KFORGE_JOB_MAX_TRIES)),
      /** How often the reaper looks for expired leases. */
      reaperIntervalMs: e.KFORGE_REAPER_INTERVAL_MS,
      /** Generate workers (agent loops) per server process. */
      generateWorkers: Math.max(1, Math.round(e.KFORGE_GENERATE_WORKERS)),
    },
    /** Budgets per session (DESIGN 7) unless the session sets its own: attempts in all, evaluation seconds in all. */
    sessions: {
      maxAttempts: Math.max(1, Math.round(e.KFORGE_SESSION_MAX_ATTEMPTS)),
      maxRunnerSeconds: e.KFORGE_SESSION_MAX_RUNNER_SECONDS,
      sseKeepAliveMs: e.KFORGE_SSE_KEEPALIVE_MS,
      /** Live-event streams one user may hold open on this process at once (0 = no limit). */
      sseStreamsPerUser: e.KFORGE_SSE_STREAMS_PER_USER,
    },
    /** Bearer token Prometheus presents to GET /metrics; null turns /metrics off (404). */
    metricsToken: e.KFORGE_METRICS_TOKEN ?? null,
    runner: {
      /** A runner not seen for this long no longer counts as serving its devices. */
      staleSeconds: e.KFORGE_RUNNER_STALE_SECONDS,
      /** How often runners are told to beat (the register answer): this, or a third of the lease if shorter. */
      heartbeatSeconds: heartbeat,
      /**
       * A runner silent (no claim, heartbeat or result) for this long is dead: it leaves the runner list and the jobs
       * it leased are re-leased without waiting for their leases to run out.
       */
      deadSeconds: e.KFORGE_RUNNER_DEAD_HEARTBEATS * heartbeat,
      /** The in-process runner's timing rules: `quick` is for tests (few samples, unstable numbers). */
      timing: e.KFORGE_RUNNER_TIMING,
      /**
       * The in-process runner's own folder (build cache, job folders). Deliberately outside the data directory:
       * sandboxed candidates must not reach the database or the secret (DESIGN 6.1), and bwrap needs a path it can enter.
       */
      workDir: resolve(e.KFORGE_RUNNER_WORK_DIR ?? defaultRunnerWorkDir(dataDir)),
      /** Run candidates unsandboxed when bubblewrap is missing (KFORGE_ALLOW_UNSANDBOXED=1; unsafe, local use only). */
      allowUnsandboxed: e.KFORGE_ALLOW_UNSANDBOXED,
      /** The interpreter (with PyTorch) of the torch backend, the problem inspector and device discovery (KFORGE_PYTHON). */
      python: runnerSettings.python,
      /** Each job in a cgroup of its own where the server can make one (KFORGE_JOB_CGROUP; `0`: no). */
      jobCgroup: runnerSettings.jobCgroup,
    },
  };
});

/** The configuration, as `ConfigSchema` makes it from the environment. */
export type Config = z.output<typeof ConfigSchema>;
/** The configuration of a started server: its signing secret settled (see `settleSecret`). */
export type ServerConfig = Config & { secret: string };

/** Parses the environment (process.env unless given) into `Config`; a bad value is a StartupError naming it. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new StartupError(`Invalid configuration:\n${lines}`);
  }
  return parsed.data;
}

/**
 * The start-up step that gives the server its signing secret: KFORGE_SECRET when set, else `<dataDir>/secret`,
 * written (0600, in a 0700 data directory) the first time. The only write configuration makes.
 */
export function settleSecret(config: Config): ServerConfig {
  return { ...config, secret: config.secret ?? loadOrCreateSecret(config.dataDir) };
}

/**
 * `$TMPDIR/kforge-runner-<uid>-<data dir hash>`: one server's own folder (made 0700 and checked at start), never a
 * shared one another local user could have created first.
 */
export function defaultRunnerWorkDir(dataDir: string): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const tag = createHash('sha256').update(dataDir).digest('hex').slice(0, 12);
  return join(tmpdir(), `kforge-runner-${uid}-${tag}`);
}

// Generated once so tokens survive restarts; 0600 because whoever reads it can mint tokens.
function loadOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString('base64url');
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process sharing the data dir wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  }
  return secret;
}
