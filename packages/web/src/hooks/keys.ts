// SWR cache keys, every one in this place, so mutations and the event stream write where the hooks read. A list's
// keys share their first element, so that one mutation can revalidate every page of it.
export const keys = {
  me: 'me',
  settings: 'settings',
  problems: 'problems',
  problem: (name: string) => ['problem', name] as const,
  devices: 'devices',
  session: (id: string) => ['session', id] as const,
  sessionStream: (id: string) => ['session-stream', id] as const,
  sessionProgress: (id: string) => ['session-progress', id] as const,
  sessions: (offset: number, deleted = false) => ['sessions', offset, deleted] as const,
  deletedSessionCount: ['sessions', 'deleted-count'] as const,
  allSessions: (offset: number, ownerId: string, problem: string) =>
    ['all-sessions', offset, ownerId, problem] as const,
  users: 'users',
  adminUsers: (q: string) => ['admin-users', q] as const,
  reviews: (status: 'pending' | 'decided') => ['admin-reviews', status] as const,
  adminStatus: 'admin-status',
  leaderboards: 'leaderboards',
  leaderboard: (problem: string, device: string) => ['leaderboard', problem, device] as const,
  submission: (id: string) => ['submission', id] as const,
  submissionProgress: (id: string) => ['submission-progress', id] as const,
  mySubmissions: 'my-submissions',
  mySubmissionsOn: (problem: string) => ['my-submissions', problem] as const,
  myTestRuns: 'my-test-runs',
  tokens: 'tokens',
  outbox: 'outbox',
  notices: 'notices',
  sweeps: (offset: number) => ['sweeps', offset] as const,
  sweep: (id: string) => ['sweep', id] as const,
  agents: (set: string, device: string) => ['agents-leaderboard', set, device] as const,
  sweepSets: 'sweep-sets',
};

/** True for every key of one list (all its pages and filters): `keys.sessions(0)` matches every sessions key. */
export const sameList =
  (example: readonly unknown[]) =>
  (key: unknown): boolean =>
    Array.isArray(key) && key[0] === example[0];
