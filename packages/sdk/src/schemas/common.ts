// Shared building blocks of the wire format: ids, timestamps, list envelopes, error bodies.
import { z } from 'zod';

/**
 * Every string of the contract: Postgres text cannot hold NUL (U+0000), so a NUL is refused here, at the edge,
 * with a 422 that names the field, instead of failing deep in the database. Chain `.min`, `.max`, `.trim` on it.
 */
export const Text = z.string().regex(/^[^\u0000]*$/, 'must not contain NUL (\\u0000) characters');

/** Ids are UUID strings on the wire. */
export const Id = Text.min(1).max(100);
/** Timestamps are ISO 8601 UTC strings. */
export const Timestamp = Text;

/** Every list is `{ data, count }`; `count` is the total across all pages. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), count: z.number().int().nonnegative() });
}
export interface List<T> {
  data: T[];
  count: number;
}

export const ValidationIssue = z.object({
  loc: z.array(z.union([Text, z.number()])),
  msg: Text,
  type: Text,
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/** `{detail: string}` for every error, or a list of issues for 422. */
export const ErrorBody = z.object({ detail: z.union([Text, z.array(ValidationIssue)]) });
export type ErrorBody = z.infer<typeof ErrorBody>;

export const Message = z.object({ message: Text });
export type Message = z.infer<typeof Message>;

export const PageParams = z.object({
  limit: z.number().int().min(1).max(1000).optional(),
  offset: z.number().int().min(0).max(1_000_000_000).optional(),
});
export type PageParams = z.infer<typeof PageParams>;
