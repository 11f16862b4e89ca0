// Shared building blocks of the wire format: ids, timestamps, list envelopes, error bodies.
import { z } from 'zod';

/** Ids are UUID strings on the wire. */
export const Id = z.string().min(1);
/** Timestamps are ISO 8601 UTC strings. */
export const Timestamp = z.string();

/** Every list is `{ data, count }`; `count` is the total across all pages. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), count: z.number().int().nonnegative() });
}
export interface List<T> {
  data: T[];
  count: number;
}

export const ValidationIssue = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/** `{detail: string}` for every error, or a list of issues for 422. */
export const ErrorBody = z.object({ detail: z.union([z.string(), z.array(ValidationIssue)]) });
export type ErrorBody = z.infer<typeof ErrorBody>;

export const Message = z.object({ message: z.string() });
export type Message = z.infer<typeof Message>;

export const PageParams = z.object({
  limit: z.number().int().min(1).max(1000).optional(),
  offset: z.number().int().min(0).optional(),
});
export type PageParams = z.infer<typeof PageParams>;
