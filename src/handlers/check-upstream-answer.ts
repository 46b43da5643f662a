/**
 * Checks a successful (2xx) upstream answer before any byte of it reaches the
 * client, so a fault never becomes a broken success: a non-streamed answer
 * must be one complete JSON object (read whole, within a bound), a streamed
 * one must be an event stream. Failures are 502 `UPSTREAM_ERROR`s (504 when
 * the upstream's silence timed out while the body was read).
 *
 * @internal
 */
import { GatewayError, isGatewayError } from '../errors.js';
import { isJsonContentType } from '../read-json-body.js';
import { UpstreamBody } from '../upstreams/http-client.js';
import type { UpstreamResponse } from '../upstreams/upstream.js';

/** Largest non-streamed upstream answer read (64 MiB); a larger one is a 502. */
export const MAX_UPSTREAM_JSON_BYTES = 64 * 1024 * 1024;

const UTF8 = new TextDecoder();

/** A whole, parsed JSON answer and its bytes as the upstream sent them. */
export interface CompleteJson {
  bytes: Uint8Array;
  json: Record<string, unknown>;
}

function mediaType(contentType: string | undefined): string {
  return contentType?.split(';', 1)[0]!.trim().toLowerCase() ?? '';
}

/** Ends a body without reading it (its socket is closed): a wrong answer may also be a silent one. */
async function dropBody(body: AsyncIterable<Uint8Array>): Promise<void> {
  try {
    await body[Symbol.asyncIterator]().return?.();
  } catch {
    // Already failed: nothing left to release.
  }
}

function badAnswer(upstream: string, what: string): GatewayError {
  return new GatewayError('UPSTREAM_ERROR', `Upstream "${upstream}" ${what}.`);
}

/** Reads a body whole, up to `limit` bytes; one chunk is returned as is, without copying. */
function readWithin(body: AsyncIterable<Uint8Array>, limit: number, upstream: string): Promise<Uint8Array> {
  if (body instanceof UpstreamBody) {
    return body.readAll(limit).then((bytes) => {
      if (bytes === undefined) throw tooLarge(upstream, limit);
      return bytes;
    });
  }
  return iterateWithin(body, limit, upstream);
}

function tooLarge(upstream: string, limit: number): GatewayError {
  return badAnswer(upstream, `sent a response larger than this gateway's ${limit}-byte limit`);
}

async function iterateWithin(body: AsyncIterable<Uint8Array>, limit: number, upstream: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    // Leaving the loop ends the iteration, which destroys the upstream body.
    if (size > limit) throw tooLarge(upstream, limit);
    chunks.push(chunk);
  }
  if (chunks.length === 1) return chunks[0]!;
  return Buffer.concat(chunks, size);
}

/**
 * Reads a non-streamed 2xx answer whole and checks it is one JSON object:
 * a JSON (or absent) content type, as many bytes as announced, and text that
 * parses. The parse is the completeness check (a body cut short does not
 * parse); its result also serves usage and translation.
 *
 * @throws GatewayError 502 `UPSTREAM_ERROR` for a non-JSON, oversized or
 *   incomplete answer; the body's own read errors (504 when the upstream
 *   fell silent, 502 when it closed the connection) as they come.
 */
export function readCompleteJson(response: UpstreamResponse, upstream: string, limit = MAX_UPSTREAM_JSON_BYTES): Promise<CompleteJson> {
  try {
    const contentType = response.headers['content-type'];
    if (contentType !== undefined && !isJsonContentType(contentType)) {
      const refused = badAnswer(upstream, `answered ${response.status} with content type ${mediaType(contentType) || 'none'} instead of JSON`);
      return dropBody(response.body).then(() => Promise.reject(refused));
    }
    return readWithin(response.body, limit, upstream).then((bytes) => checkCompleteJson(response, upstream, bytes));
  } catch (error) {
    // A custom upstream's malformed answer (no headers object, say): a bad answer like the others.
    return Promise.reject(isGatewayError(error) ? error : badAnswer(upstream, 'sent an answer this gateway could not read'));
  }
}

function checkCompleteJson(response: UpstreamResponse, upstream: string, bytes: Uint8Array): CompleteJson {
  const announced = response.headers['content-length'];
  if (announced !== undefined && Number(announced) !== bytes.byteLength) {
    throw badAnswer(upstream, `sent ${bytes.byteLength} of the ${announced} bytes it announced`);
  }
  let json: unknown;
  try {
    json = JSON.parse(UTF8.decode(bytes));
  } catch {
    throw badAnswer(upstream, 'sent an incomplete or invalid JSON response');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw badAnswer(upstream, 'sent a JSON response that is not an object');
  }
  return { bytes, json: json as Record<string, unknown> };
}

/**
 * Checks a streamed 2xx answer is an event stream (`text/event-stream`)
 * before anything is relayed; otherwise drops the body and throws.
 *
 * @throws GatewayError 502 `UPSTREAM_ERROR`.
 */
export async function checkEventStream(response: UpstreamResponse, upstream: string): Promise<void> {
  const type = mediaType(response.headers['content-type']);
  if (type === 'text/event-stream') return;
  await dropBody(response.body);
  throw badAnswer(upstream, `answered a streamed request with content type ${type || 'none'} instead of text/event-stream`);
}
