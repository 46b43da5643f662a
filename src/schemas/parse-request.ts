/**
 * Validates a request body against a schema and turns failures into an
 * `INVALID_REQUEST` `GatewayError` whose message names the failing field
 * (`messages.2.content.0.image_url.url: expected string, received number`)
 * and whose `param` is the first failing path.
 */
import { ZodError, type z } from 'zod';
import { GatewayError } from '../errors.js';
import { explainIssues, formatIssues, formatPath } from './format-issues.js';

export { explainIssues, formatIssues, formatPath } from './format-issues.js';
export type { ExplainOptions, IssueLine } from './format-issues.js';

/** Result of `safeParseRequest`. */
export type ParseRequestResult<T> = { ok: true; data: T } | { ok: false; error: GatewayError };

/** Most issues kept as the error's `cause` (the first ones); a body can fail in tens of thousands of places. */
const MAX_CAUSE_ISSUES = 3;
/** Most nested issues (union branches, their issues) kept under each of them. */
const MAX_NESTED_ISSUES = 3;

/**
 * Parses `body` with `schema`. Unknown fields are kept when the schema is
 * loose (all request schemas here are).
 *
 * The body is parsed once; the message reads what each failing field
 * received from the body itself (zod's `reportInput` would take its slow
 * path), and only the issues it shows are explained.
 *
 * @returns the parsed data, or an `INVALID_REQUEST` error (HTTP 400) with
 * the formatted issues as message, the first failing path as `param`
 * (`null` when the body itself is wrong) and the first few issues as `cause`.
 */
export function safeParseRequest<S extends z.ZodType>(schema: S, body: unknown): ParseRequestResult<z.output<S>> {
  const result = schema.safeParse(body);
  if (result.success) return { ok: true, data: result.data };
  const { issues } = result.error;
  const first = explainIssues(issues, { body, limit: 1 })[0];
  const param = first && first.path.length > 0 ? formatPath(first.path) : null;
  const cause = new ZodError(issues.slice(0, MAX_CAUSE_ISSUES).map((issue) => pruneIssue(issue, MAX_NESTED_ISSUES)));
  const error = new GatewayError('INVALID_REQUEST', formatIssues(result.error, { body }), { param, cause });
  return { ok: false, error };
}

/** `issue` with at most `keep` nested issues per list, down to `depth` levels: what a log needs, not the whole tree. */
function pruneIssue(issue: z.core.$ZodIssue, keep: number, depth = 4): z.core.$ZodIssue {
  if (issue.code === 'invalid_union') {
    if (issue.errors.length === 0) return issue;
    const errors = depth > 0 ? issue.errors.slice(0, keep).map((branch) => branch.slice(0, keep).map((inner) => pruneIssue(inner, keep, depth - 1))) : [];
    // The branches of a union with branches, fewer of them: still the same kind of issue.
    return { ...issue, errors } as z.core.$ZodIssue;
  }
  if (issue.code === 'invalid_key' || issue.code === 'invalid_element') {
    const issues: z.core.$ZodIssue[] = depth > 0 ? issue.issues.slice(0, keep).map((inner) => pruneIssue(inner, keep, depth - 1)) : [];
    return { ...issue, issues };
  }
  return issue;
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
