/**
 * The bytes an upstream call sends: the caller's exact bytes when the body
 * passes through unchanged, else the JSON of the (translated) body.
 *
 * @internal
 */
import { GatewayError } from '../errors.js';
import type { UpstreamCall } from './upstream.js';

export function requestBody(call: UpstreamCall): string | Uint8Array | undefined {
  if (call.rawBody !== undefined) return call.rawBody;
  return call.body === undefined ? undefined : JSON.stringify(call.body);
}

/**
 * The caller headers minus anything that must not be overridden by them:
 * credentials and framing are the client's own business, whatever
 * `call.headers` holds (defence in depth behind `forwardHeaders`).
 */
export function callerHeaders(call: UpstreamCall, isUnforwardable: (name: string) => boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(call.headers)) {
    if (!isUnforwardable(name)) out[name.toLowerCase()] = value;
  }
  return out;
}

/** The call's body as a JSON object, for upstreams that rewrite it (the cloud platforms): the caller's bytes parsed, else the body. */
export function requestBodyObject(call: UpstreamCall): Record<string, unknown> {
  let body: unknown = call.body;
  if (call.rawBody !== undefined) {
    try {
      body = JSON.parse(new TextDecoder().decode(call.rawBody));
    } catch {
      body = undefined;
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('INVALID_REQUEST', 'The request body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}

/** The betas of a body's `anthropic_beta` and of an `anthropic-beta` header (comma-separated), once each, in that order. */
export function betasOf(header: string | undefined, inBody: unknown): string[] {
  const betas = new Set<string>();
  if (Array.isArray(inBody)) for (const beta of inBody) if (typeof beta === 'string' && beta !== '') betas.add(beta);
  for (const beta of (header ?? '').split(',')) if (beta.trim() !== '') betas.add(beta.trim());
  return [...betas];
}

/** Response headers without the framing ones, for an upstream that re-encodes the body it relays. */
export function withoutFraming(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (name !== 'content-length' && name !== 'content-type') out[name] = value;
  return out;
}
