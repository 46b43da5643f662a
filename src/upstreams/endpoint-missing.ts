/**
 * A 404 for the endpoint path itself, told apart from a 404 for the model.
 *
 * The rule: a 404 is the model's when its body is JSON whose error says so:
 * a `code` of `model_not_found` (OpenAI), or a message (the error
 * envelope's `error.message` or `error` string, or a top-level `message` or
 * `detail`, as vLLM and FastAPI servers send) that mentions a model or names
 * the requested one (`The model 'x' does not exist`, Ollama's `model "x" not
 * found`, the vendor's `model: x`). Any other 404 is the path's: a page
 * (`Cannot POST /chat/completions`, an HTML page), plain text, JSON without
 * such an error (FastAPI's `{"detail":"Not Found"}`), or an error about the
 * URL (OpenAI's `Invalid URL (POST /v1/chat/completion)`). A path's 404
 * means the upstream's base URL is wrong: every call to it fails alike, so
 * it is a failure of the target (the call moves on to the next one), and the
 * caller gets a 502 rather than a 404 that blames its request.
 *
 * @internal
 */
import { GatewayError } from '../errors.js';
import type { UpstreamCall } from './upstream.js';

const MODEL_NOT_FOUND_CODE = 'model_not_found';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The messages and codes an error body carries, wherever the common server families put them. */
function errorTexts(json: Record<string, unknown>): { messages: string[]; codes: string[] } {
  const messages: string[] = [];
  const codes: string[] = [];
  const add = (list: string[], value: unknown): void => {
    if (typeof value === 'string') list.push(value);
  };
  const { error } = json;
  if (isRecord(error)) {
    add(messages, error.message);
    add(codes, error.code);
    add(codes, error.type);
  } else {
    add(messages, error);
  }
  add(messages, json.message);
  add(messages, json.detail);
  add(codes, json.code);
  return { messages, codes };
}

/**
 * True when a 404's body says the model was not found (see the rule above);
 * false when the 404 is for the path. `model` is the model id the call
 * named, when known.
 */
export function isModelNotFound(body: string, model?: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return false;
  }
  if (!isRecord(json)) return false;
  const { messages, codes } = errorTexts(json);
  if (codes.some((code) => code.toLowerCase() === MODEL_NOT_FOUND_CODE)) return true;
  const id = model?.toLowerCase();
  return messages.some((message) => {
    const text = message.toLowerCase();
    return /\bmodels?\b/.test(text) || (id !== undefined && id !== '' && text.includes(id));
  });
}

/**
 * What operators get beside the 502 (its `cause`, seen by `onError` and the
 * logs): the upstream, the base URL it was given and the path that answered
 * 404. Built from configuration only (the base URL without its query, which
 * may hold a key, and with the upstream's own secrets redacted), so the
 * gateway's redaction keeps it whole: callers never see a cause.
 */
export class EndpointMissingDetail extends Error {
  readonly upstream: string;
  readonly baseURL: string;
  readonly path: string;

  constructor(options: { upstream: string; baseURL: string; path: string }) {
    super(`Upstream "${options.upstream}" answered 404 for ${options.path} under its base URL ${options.baseURL}: that is not where the server serves it.`);
    this.name = 'EndpointMissingDetail';
    this.upstream = options.upstream;
    this.baseURL = options.baseURL;
    this.path = options.path;
  }
}

/**
 * The 502 for a path's 404: names the upstream and says what to fix, without
 * the base URL itself (an internal address, hidden from callers); the
 * `cause` holds it for `onError`.
 */
export function endpointMissingError(options: { upstream: string; baseURL: string; path: string; hint: string }): GatewayError {
  return new GatewayError(
    'UPSTREAM_ENDPOINT_MISSING',
    `Upstream "${options.upstream}" answered 404 for its endpoint path ${options.path}: ${options.hint} This is the gateway's configuration, not your request.`,
    { cause: new EndpointMissingDetail(options) },
  );
}

/** The model a call names, when its body is an object (a caller's bytes passed through are not parsed for it). */
export function modelOf(call: UpstreamCall): string | undefined {
  const { body } = call;
  if (typeof body !== 'object' || body === null) return undefined;
  const { model } = body as { model?: unknown };
  return typeof model === 'string' ? model : undefined;
}
