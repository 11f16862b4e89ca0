// Request parsing against the sdk's zod schemas; every failure is a 422 with FastAPI-shaped issues.
import type { Context } from 'hono';
import type { z } from 'zod';
import type { ValidationIssue } from '@kernelforge/sdk';
import { HttpError, ValidationError } from './errors.js';

type Where = 'body' | 'query' | 'path' | 'form';

/** Converts zod issues to `{loc, msg, type}`; `loc` starts with where the value came from, as FastAPI does. */
export function toIssues(error: z.ZodError, where: Where): ValidationIssue[] {
  return error.issues.map((i) => ({
    loc: [where === 'form' ? 'body' : where, ...i.path.map((p) => (typeof p === 'number' ? p : String(p)))],
    msg: i.message,
    type: i.code,
  }));
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: Where): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new ValidationError(toIssues(r.error, where));
  return r.data;
}

const isJsonType = (type: string | undefined) => /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type?.trim() ?? '');
const isFormType = (type: string | undefined) =>
  /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i.test(type?.trim() ?? '');

/**
 * The JSON body, validated. A body sent as anything but JSON is a 415: a page on another site can POST `text/plain`
 * without a CORS preflight, never `application/json`. A body that is not JSON is a 422 (`json_invalid`).
 */
export async function parseJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  let body: unknown;
  const text = await c.req.text();
  if (text.trim() !== '' && !isJsonType(c.req.header('content-type')))
    throw new HttpError(415, 'Send the body as JSON, with the header Content-Type: application/json');
  try {
    body = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    throw new ValidationError([{ loc: ['body', 0], msg: 'JSON decode error', type: 'json_invalid' }]);
  }
  return parseWith(schema, body, 'body');
}

/**
 * Query parameters, validated. A value is converted to a number or boolean only where the object schema's
 * field expects one, so the sdk's `z.number()` fields (limit, offset) work without `z.coerce` in the contract.
 */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const raw = c.req.query();
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  const value: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    const field = shape[k];
    value[k] = field ? coerceFor(field, v) : v;
  }
  return parseWith(schema, value, 'query');
}

/** Path parameters, validated. */
export function parseParams<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  return parseWith(schema, c.req.param(), 'path');
}

/** Form data (urlencoded or multipart), validated; empty values count as absent (the web omits them). */
export async function parseForm<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  if (!isFormType(c.req.header('content-type')))
    throw new HttpError(
      415,
      'Send the fields as form data, with Content-Type: application/x-www-form-urlencoded or multipart/form-data',
    );
  let form: Record<string, unknown>;
  try {
    form = (await c.req.parseBody()) as Record<string, unknown>;
  } catch {
    form = {};
  }
  const value: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(form)) if (v !== '') value[k] = v;
  return parseWith(schema, value, 'form');
}

// Looks through optional/default/nullable wrappers to the base type of a zod v4 schema.
function baseType(schema: z.ZodType): string {
  let def = (schema as unknown as { _zod: { def: { type: string; innerType?: z.ZodType } } })._zod.def;
  while (def.innerType && ['optional', 'default', 'nullable', 'prefault', 'catch', 'readonly'].includes(def.type)) {
    def = (def.innerType as unknown as { _zod: { def: { type: string; innerType?: z.ZodType } } })._zod.def;
  }
  return def.type;
}

function coerceFor(field: z.ZodType, v: string): unknown {
  const type = baseType(field);
  if (type === 'number' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  if (type === 'boolean' && (v === 'true' || v === 'false')) return v === 'true';
  return v;
}
