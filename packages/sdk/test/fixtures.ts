// Wire-shaped bodies for the client tests: what the server answers, snake_case as on the wire.
export const now = '2026-11-21T12:00:00.000Z';

export const user = {
  id: 'u1',
  email: 'ada@example.com',
  full_name: 'Ada',
  created_at: now,
  is_superuser: false,
  is_active: true,
};

export const attempt = (n: number, time?: number) => ({
  id: `a${n}`,
  session_id: 's1',
  instruction_id: 'i1',
  attempt_number: n,
  status: 'completed',
  language: 'c',
  source: 'void solution() {}',
  explanation: 'why',
  evaluation_state:
    time === undefined
      ? null
      : {
          verdict: 'accepted',
          mode: 'benchmark',
          message: 'accepted',
          compile: null,
          correctness: null,
          benchmarking_result: {
            optimized_time: time,
            baseline_time: 2 * time,
            speedup: 2,
            gbps: 10,
            gflops: 1,
            fraction_of_peak: 0.5,
            cases: [],
          },
          runner_seconds: 1,
          evaluated_at: now,
        },
  created_at: now,
  finished_at: now,
});

export const instruction = {
  id: 'i1',
  session_id: 's1',
  text: 'Optimize for speed',
  name: 'Optimize for speed',
  starred: false,
  status: 'active',
  max_attempts: 5,
  created_at: now,
  deleted_at: null,
};

export const session = {
  id: 's1',
  owner_id: 'u1',
  problem_name: '19_ReLU',
  name: '19_ReLU',
  label: '19 ReLU',
  device: 'cpu-x86_64',
  status: 'active',
  agent: { provider: 'tuner', model: null },
  created_at: now,
  updated_at: now,
  deleted_at: null,
  best_attempt: attempt(1, 1.5),
  generation_attempts: [attempt(1, 1.5)],
  user_instructions: [instruction],
};

export const summary = (id: string) => {
  const { generation_attempts: _a, user_instructions: _i, ...rest } = session;
  return { ...rest, id, attempt_count: 1 };
};

export const settings = {
  posthog_key: null,
  posthog_host: null,
  feedback_survey_id: null,
  waitlist_survey_id: null,
  google_client_id: null,
  page_urls: { terms_of_service: null, privacy_policy: null, contact_us: null },
  auth_server: { url: 'http://localhost/auth', application_name: 'kernelforge' },
  agents: [{ provider: 'tuner', models: ['tuner'], default_model: 'tuner' }],
};

export const publicUser = { id: 'u1', full_name: 'Ada', display_name: 'Ada' };

export const submission = {
  id: 'sub1',
  user: publicUser,
  problem_name: '19_ReLU',
  device: 'cpu-x86_64',
  language: 'c',
  source: null,
  status: 'completed',
  verdict: 'accepted',
  time_ms: 1.25,
  speedup: 3,
  evaluation_state: null,
  created_at: now,
  finished_at: now,
  rank: 1,
};

export const leaderboard = {
  problem_name: '19_ReLU',
  title: '19 ReLU',
  entries: [
    {
      rank: 1,
      submission_id: 'sub1',
      user: publicUser,
      problem_name: '19_ReLU',
      device: 'cpu-x86_64',
      time_ms: 1.25,
      speedup: 3,
      flagged_for_review: false,
      created_at: now,
    },
  ],
  count: 1,
};

export const apiToken = {
  id: 't1',
  name: 'ci',
  prefix: 'kf_abcd',
  created_at: now,
  last_used_at: null,
  expires_at: null,
};
