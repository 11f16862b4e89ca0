// The address of a comparison of two submissions, the older one first (A, before), as a session's attempts compare.

export const submissionComparePath = (a: string, b: string) =>
  `/leaderboard/submission/${encodeURIComponent(a)}/compare/${encodeURIComponent(b)}`;

/** The address comparing two submissions in time order. */
export function comparePairPath(x: { id: string; created_at: string }, y: { id: string; created_at: string }): string {
  return x.created_at <= y.created_at ? submissionComparePath(x.id, y.id) : submissionComparePath(y.id, x.id);
}
