/**
 * The floor servers' share of the work: the least any gateway conforming to
 * the spec and its fault-path rules must do per non-streamed request, written as cheaply
 * as we can, to show how much of a bare proxy's budget that work alone takes
 * in each framework. Per request: check the key (a plain string compare, a
 * lower bound: modelgate compares SHA-256 digests in constant time), parse
 * the body and validate it with modelgate's own zod schema, forward the
 * bytes with the upstream's key, read the answer whole and check that it is
 * a JSON object (no broken 200), send it with `content-length`.
 * Not done (modelgate does it): model rules, routing, retries, deadlines,
 * usage, redaction, request ids, limits and telemetry hooks.
 */
import { chatCompletionRequestSchema, messagesRequestSchema } from '../../dist/index.js';

const KEY = 'sk-bench';
const UTF8 = new TextDecoder();

/** The upstream path, headers and schema for a request path, or undefined (not served). */
function endpointOf(path) {
  if (path.endsWith('/chat/completions')) return { schema: chatCompletionRequestSchema, chat: true };
  if (path.endsWith('/messages')) return { schema: messagesRequestSchema, chat: false };
  return undefined;
}

/**
 * Checks one request. Returns `{ status, body }` to answer at once, or
 * `{ headers, stream }`: what to send upstream with the caller's bytes, and
 * whether the caller asked for a stream.
 */
export function checkRequest(path, header, raw) {
  const endpoint = endpointOf(path);
  if (endpoint === undefined) return { status: 404, body: '{"error":{"message":"not found"}}' };
  const key = endpoint.chat ? header('authorization') : (header('x-api-key') ?? header('authorization'));
  if (key !== KEY && key !== `Bearer ${KEY}`) return { status: 401, body: '{"error":{"message":"bad key"}}' };
  let body;
  try {
    body = JSON.parse(UTF8.decode(raw));
  } catch {
    return { status: 400, body: '{"error":{"message":"bad JSON"}}' };
  }
  if (!endpoint.schema.safeParse(body).success) return { status: 400, body: '{"error":{"message":"invalid"}}' };
  const stream = body.stream === true;
  if (endpoint.chat) return { stream, headers: { 'content-type': 'application/json', authorization: 'Bearer sk-upstream' } };
  return { stream, headers: { 'content-type': 'application/json', 'x-api-key': 'sk-upstream', 'anthropic-version': header('anthropic-version') ?? '2023-06-01' } };
}

/** True when the upstream's answer is a complete JSON object (else the floor answers 502). */
export function isCompleteAnswer(bytes) {
  try {
    const json = JSON.parse(UTF8.decode(bytes));
    return typeof json === 'object' && json !== null && !Array.isArray(json);
  } catch {
    return false;
  }
}
