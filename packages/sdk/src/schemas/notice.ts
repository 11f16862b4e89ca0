// What happened to the caller's results lately, newest first (GET /api/v1/users/me/notices): a submission finished,
// was flagged for review, or was approved or rejected by a reviewer.
import { z } from 'zod';
import { Text, Timestamp } from './common.js';

export const Notice = z.object({
  /** Stable for one event (the submission's id and the kind), so a client can remember what it has shown. */
  id: Text,
  kind: z.enum(['finished', 'flagged', 'approved', 'rejected']),
  at: Timestamp,
  text: Text,
  href: Text,
});
export type Notice = z.infer<typeof Notice>;

export const NoticeList = z.object({ data: z.array(Notice) });
export type NoticeList = z.infer<typeof NoticeList>;
