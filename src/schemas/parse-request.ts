/**
 * Validates a request body against a schema and turns failures into an
 * `INVALID_REQUEST` `GatewayError` whose message names the failing field
 * (`messages.2.content.0.image_url.url: expected string, received number`)
 * and whose `param` is the first failing path.
 */
import type { z } from 'zod';
import { GatewayError } from '../errors.js';
import { explainIssues, formatIssues, formatPath } from './format-issues.js';

export { explainIssues, formatIssues, formatPath } from './format-issues.js';
export type { IssueLine } from './format-issues.js';

/** Result of `safeParseRequest`. */
export type ParseRequestResult<T> = { ok: true; data: T } | { ok: false; error: GatewayError };

/**
 * `reportInput` attaches each failing value to its issue (a reference, not a
 * copy), so the message can say what was received and tell a missing field
 * from a wrong one. It also makes zod take its slow path (several times the
 * cost of a plain parse on a valid body), so it is only used to explain a
 * body the plain parse already rejected.
 */
const EXPLAIN_OPTIONS = { reportInput: true } as const;

/**
 * Parses `body` with `schema`. Unknown fields are kept when the schema is
 * loose (all request schemas here are).
 *
 * @returns the parsed data, or an `INVALID_REQUEST` error (HTTP 400) with
 * the formatted issues as message and the first failing path as `param`
 * (`null` when the body itself is wrong).
 */
export function safeParseRequest<S extends z.ZodType>(schema: S, body: unknown): ParseRequestResult<z.output<S>> {
  const plain = schema.safeParse(body);
  if (plain.success) return { ok: true, data: plain.data };
  // Parsing is deterministic: the second pass fails the same way, with the received values attached.
  const result = schema.safeParse(body, EXPLAIN_OPTIONS);
  if (result.success) return { ok: true, data: result.data };
  const first = explainIssues(result.error.issues)[0];
  const param = first && first.path.length > 0 ? formatPath(first.path) : null;
  const error = new GatewayError('INVALID_REQUEST', formatIssues(result.error), { param, cause: result.error });
  return { ok: false, error };
}

/**
 * Like `safeParseRequest`, but throws the `GatewayError`.
 *
 * @example
 * const body = parseRequest(messagesRequestSchema, req.body);
 */
export function parseRequest<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = safeParseRequest(schema, body);
  if (!result.ok) throw result.error;
  return result.data;
}
