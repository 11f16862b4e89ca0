// Errors a person can act on: a plain sentence and a way on, shown above the default error view's toggle.
export interface ErrorHelp {
  text: string;
  href: string;
  link: string;
}

const HELP: Record<string, ErrorHelp> = {
  'Session not found': {
    text: 'There is no session of yours at this address: it may have been deleted for good, or the link is mistyped.',
    href: '/sessions',
    link: 'Go to my sessions',
  },
  'Problem ID is required': {
    text: 'This address names no problem. Pick one from the leaderboards.',
    href: '/leaderboard/',
    link: 'Go to the leaderboards',
  },
};

export function errorHelp(error: unknown): ErrorHelp | undefined {
  return error instanceof Error ? HELP[error.message] : undefined;
}
