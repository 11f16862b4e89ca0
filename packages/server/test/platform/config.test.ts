// Configuration is parsed once into Config: the queue, session and runner knobs included, with defaults and errors.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { defaultRunnerWorkDir, loadConfig, settleSecret } from '../../src/config.js';

const dataDir = mkdtempSync(join(tmpdir(), 'kforge-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('has defaults for the job, session and runner knobs, and counts empty values as unset', () => {
  const c = loadConfig({ KFORGE_DATA_DIR: dataDir, KFORGE_JOB_LEASE_SECONDS: '', KFORGE_RUNNER_TIMING: ' ' });
  expect(c.jobs).toEqual({ leaseSeconds: 60, maxTries: 3, reaperIntervalMs: 2000, generateWorkers: 2 });
  expect(c.sessions).toEqual({
    maxAttempts: 200,
    maxRunnerSeconds: 3600,
    sseKeepAliveMs: 15_000,
    sseStreamsPerUser: 20,
  });
  // One server's own runner folder, never a shared one: named after the user and the data directory.
  // Runners beat every 10 s and are dead after 2.5 silent beats (25 s); a short lease shortens the beat.
  expect(c.runner).toEqual({
    staleSeconds: 90,
    heartbeatSeconds: 10,
    deadSeconds: 25,
    timing: 'default',
    workDir: defaultRunnerWorkDir(dataDir),
    allowUnsandboxed: false,
    python: '/usr/bin/python3',
    jobCgroup: true,
  });
  expect(c.runner.workDir.startsWith(join(tmpdir(), `kforge-runner-${process.getuid?.() ?? 0}-`))).toBe(true);
  expect(defaultRunnerWorkDir(join(dataDir, 'other'))).not.toBe(c.runner.workDir);
  // Safe defaults: loopback only, metrics off until a token is set.
  expect(c.host).toBe('127.0.0.1');
  expect(c.metricsToken).toBeNull();
});

it('reads every knob from the environment it is given, not from process.env', () => {
  process.env.KFORGE_JOB_MAX_TRIES = '9';
  try {
    const c = loadConfig({
      KFORGE_DATA_DIR: dataDir,
      KFORGE_JOB_LEASE_SECONDS: '1.5',
      KFORGE_REAPER_INTERVAL_MS: '150',
      KFORGE_GENERATE_WORKERS: '4',
      KFORGE_SESSION_MAX_ATTEMPTS: '7',
      KFORGE_SESSION_MAX_RUNNER_SECONDS: '30',
      KFORGE_SSE_KEEPALIVE_MS: '100',
      KFORGE_SSE_STREAMS_PER_USER: '3',
      KFORGE_RUNNER_STALE_SECONDS: '5',
      KFORGE_RUNNER_HEARTBEAT_SECONDS: '4',
      KFORGE_RUNNER_DEAD_HEARTBEATS: '3',
      KFORGE_RUNNER_TIMING: 'quick',
      KFORGE_RUNNER_WORK_DIR: join(dataDir, 'work'),
      KFORGE_PYTHON: '/opt/py/bin/python3',
      KFORGE_JOB_CGROUP: '0',
    });
    expect(c.jobs).toEqual({ leaseSeconds: 1.5, maxTries: 3, reaperIntervalMs: 150, generateWorkers: 4 });
    expect(c.sessions).toEqual({ maxAttempts: 7, maxRunnerSeconds: 30, sseKeepAliveMs: 100, sseStreamsPerUser: 3 });
    expect(c.runner).toEqual({
      staleSeconds: 5,
      // A third of the 1.5 s lease would be 0.5 s: whole seconds, at least 1, are what runners are told.
      heartbeatSeconds: 1,
      deadSeconds: 3,
      timing: 'quick',
      workDir: join(dataDir, 'work'),
      allowUnsandboxed: false,
      python: '/opt/py/bin/python3',
      jobCgroup: false,
    });
  } finally {
    delete process.env.KFORGE_JOB_MAX_TRIES;
  }
});

it('refuses a bad value with a message naming the variable', () => {
  expect(() => loadConfig({ KFORGE_DATA_DIR: dataDir, KFORGE_JOB_LEASE_SECONDS: '0' })).toThrow(
    /KFORGE_JOB_LEASE_SECONDS/,
  );
  expect(() => loadConfig({ KFORGE_DATA_DIR: dataDir, KFORGE_RUNNER_TIMING: 'fast' })).toThrow(/KFORGE_RUNNER_TIMING/);
});

it('loads without side effects; the secret file is written by the start-up step, once, private', () => {
  const fresh = join(dataDir, 'fresh');
  const c = loadConfig({ KFORGE_DATA_DIR: fresh });
  expect(c.secret).toBeNull();
  expect(existsSync(fresh)).toBe(false);
  const started = settleSecret(c);
  expect(started.secret.length).toBeGreaterThanOrEqual(32);
  expect(readdirSync(fresh)).toEqual(['secret']);
  expect(statSync(join(fresh, 'secret')).mode & 0o777).toBe(0o600);
  // The next start reads it back; KFORGE_SECRET wins over the file and writes nothing.
  expect(settleSecret(loadConfig({ KFORGE_DATA_DIR: fresh })).secret).toBe(started.secret);
  const given = loadConfig({ KFORGE_DATA_DIR: join(dataDir, 'given'), KFORGE_SECRET: 'x'.repeat(40) });
  expect(settleSecret(given).secret).toBe('x'.repeat(40));
  expect(existsSync(join(dataDir, 'given'))).toBe(false);
});
