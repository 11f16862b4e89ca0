// SWR cache keys, one place, so mutations and the event stream write where the hooks read.
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
  allSessions: (offset: number, ownerId: string, problem: string) =>
    ['all-sessions', offset, ownerId, problem] as const,
  users: 'users',
  leaderboards: 'leaderboards',
  leaderboard: (problem: string, device: string) => ['leaderboard', problem, device] as const,
  submission: (id: string) => ['submission', id] as const,
  mySubmissions: 'my-submissions',
  mySubmissionsOn: (problem: string) => ['my-submissions', problem] as const,
  tokens: 'tokens',
  outbox: 'outbox',
};
