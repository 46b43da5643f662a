/**
 * Turns a sent upstream call into the client's response: JSON relayed as
 * bytes or translated, or an SSE stream relayed or translated; and reports
 * the call's usage once it is known.
 *
 * @internal
 */
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import { readResponseMeta, type ResponseMeta } from '../observability/genai-attributes.js';
import { withResponseMeta } from '../observability/stream-meta.js';
import { relaySse, type StreamTransform } from '../sse/relay-stream.js';
import { createSseHeaders } from '../sse/sse-headers.js';
import { createUsageObserver, readUsage } from '../sse/usage-observer.js';
import type { BytesResponse, GatewayResponse, JsonResponse, SseResponse, WireFormat } from '../types.js';
import type { TokenUsage } from '../usage.js';
import { type CallPlan, readUpstreamJson, relayedHeaders, type SentCall, upstreamFailure } from './call-upstream.js';
import { reportUsage, usageReporter, wantsUsage } from './report-usage.js';

const UTF8 = new TextDecoder();

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** Throws the caller-format error for a failed upstream answer (after reporting it). */
async function failIfUnsuccessful(ctx: GatewayContext, runtime: GatewayRuntime, sent: SentCall<CallPlan>): Promise<void> {
  if (isSuccess(sent.response.status)) return;
  const error = await upstreamFailure(ctx, sent);
  reportUsage(ctx, runtime, {
    status: error.status, stream: sent.plan.stream, usage: {}, aborted: false, target: sent.plan.target, firstByteAt: sent.headAt,
    observation: sent.observation,
  });
  throw error;
}

/** Parses a whole JSON answer, reports its usage and returns it (for translation). */
export async function readSuccessJson(ctx: GatewayContext, runtime: GatewayRuntime, sent: SentCall<CallPlan>): Promise<unknown> {
  await failIfUnsuccessful(ctx, runtime, sent);
  const json = await readUpstreamJson(sent);
  const format = sent.plan.target.upstream.format;
  reportUsage(ctx, runtime, {
    status: 200,
    stream: false,
    usage: readUsage(format, json),
    aborted: false,
    target: sent.plan.target,
    firstByteAt: sent.headAt,
    ...(sent.observation ? { meta: readResponseMeta(format, json), observation: sent.observation } : {}),
  });
  return json;
}

/** A translated JSON answer. */
export function jsonResponse(sent: SentCall<CallPlan>, body: unknown): JsonResponse {
  return { type: 'json', status: 200, headers: relayedHeaders(sent.response), body };
}

async function* teeForUsage(
  body: AsyncIterable<Uint8Array>,
  onDone: (chunks: Uint8Array[], aborted: boolean) => void,
): AsyncGenerator<Uint8Array, void, undefined> {
  const chunks: Uint8Array[] = [];
  let aborted = true;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      yield chunk;
    }
    aborted = false;
  } finally {
    onDone(chunks, aborted);
  }
}

/**
 * Largest relayed JSON answer read whole before it is sent (1 MiB): the
 * writers then send it in one `res.end(buf)` (Koa gets a Buffer instead of a
 * stream pipeline), which costs far less per request than relaying chunks
 * through async iteration. Larger or unannounced bodies are streamed.
 */
export const MAX_BUFFERED_JSON_BYTES = 1024 * 1024;

/** The announced length when it is a small enough integer to buffer, else undefined. */
function bufferableLength(contentLength: string | undefined): number | undefined {
  if (contentLength === undefined) return undefined;
  const length = Number(contentLength);
  return Number.isInteger(length) && length >= 0 && length <= MAX_BUFFERED_JSON_BYTES ? length : undefined;
}

/** Reads a whole (small) body; one chunk is returned as is, without copying. */
async function readWhole(body: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  if (chunks.length === 1) return chunks[0]!;
  return Buffer.concat(chunks, size);
}

/** Usage (and, for observability, the response meta) of a relayed JSON answer. */
function usageOf(sent: SentCall<CallPlan>, bytes: Uint8Array): { usage: TokenUsage; meta?: ResponseMeta } {
  const format = sent.plan.target.upstream.format;
  try {
    const json: unknown = JSON.parse(UTF8.decode(bytes));
    return sent.observation ? { usage: readUsage(format, json), meta: readResponseMeta(format, json) } : { usage: readUsage(format, json) };
  } catch {
    // Usage is best-effort: an unparseable body still reaches the client as sent.
    return { usage: {} };
  }
}

/** Relays a same-format JSON answer as the bytes the upstream sent (no re-serialisation). */
export async function relayJsonBytes(ctx: GatewayContext, runtime: GatewayRuntime, sent: SentCall<CallPlan>): Promise<BytesResponse> {
  await failIfUnsuccessful(ctx, runtime, sent);
  const { response, plan } = sent;
  const headers = relayedHeaders(response);
  headers['content-type'] = response.headers['content-type'] ?? 'application/json';
  const contentLength = response.headers['content-length'];
  if (contentLength !== undefined) headers['content-length'] = contentLength;
  const report = (read: { usage: TokenUsage; meta?: ResponseMeta }, aborted: boolean) =>
    reportUsage(ctx, runtime, {
      status: response.status, stream: false, ...read, aborted, target: plan.target, firstByteAt: sent.headAt, observation: sent.observation,
    });
  if (bufferableLength(contentLength) !== undefined) {
    const bytes = await readWhole(response.body);
    headers['content-length'] = String(bytes.byteLength);
    if (wantsUsage(runtime)) report(usageOf(sent, bytes), false);
    return { type: 'bytes', status: response.status, headers, body: bytes };
  }
  let body: AsyncIterable<Uint8Array> = response.body;
  if (wantsUsage(runtime)) {
    body = teeForUsage(response.body, (chunks, aborted) => report(usageOf(sent, Buffer.concat(chunks)), aborted));
  }
  return { type: 'bytes', status: response.status, headers, body };
}

/**
 * Relays an SSE answer to a client speaking `format`, through `transform`
 * when the upstream speaks the other format.
 */
export async function relayStream(
  ctx: GatewayContext,
  runtime: GatewayRuntime,
  sent: SentCall<CallPlan>,
  options: { format: WireFormat; transform?: StreamTransform },
): Promise<SseResponse> {
  await failIfUnsuccessful(ctx, runtime, sent);
  const { response, plan } = sent;
  const { target } = plan;
  const upstreamFormat = target.upstream.format;
  // The relay's callbacks live as long as the stream: they hold the few values they need, not ctx or the plan (request bodies).
  const report = usageReporter(ctx, runtime);
  const { observation } = sent;
  const usageObserver = report ? createUsageObserver(upstreamFormat) : undefined;
  const metaObserver = usageObserver && observation ? withResponseMeta(usageObserver, upstreamFormat) : undefined;
  const observer = metaObserver ?? usageObserver;
  const headAt = sent.headAt;
  const body = relaySse({
    upstream: response.body,
    format: options.format,
    upstreamFormat,
    heartbeatMs: runtime.heartbeatMs,
    signal: ctx.request.signal,
    onClientAbort: ctx.route?.onClientAbort ?? 'abort',
    upstreamName: target.upstream.name,
    ...(options.transform ? { transform: options.transform } : {}),
    ...(observer ? { onEvent: (event) => observer.observe(event), observes: (raw) => observer.observes(raw) } : {}),
    ...(observation?.onChunk ? { onChunk: observation.onChunk } : {}),
    ...(report && observer
      ? {
          onEnd: (outcome) => {
            report({
              status: 200,
              stream: true,
              usage: observer.usage,
              aborted: outcome.status === 'aborted',
              target,
              firstByteAt: outcome.firstEventAt ?? headAt,
              ...(observation ? { observation, ...(metaObserver ? { meta: metaObserver.meta } : {}) } : {}),
              ...(outcome.error ? { error: outcome.error } : {}),
            });
          },
        }
      : {}),
  });
  return { type: 'sse', status: 200, headers: createSseHeaders(relayedHeaders(response)), body };
}

/** Picks the relay for a same-format answer. */
export function relayUnchanged(
  ctx: GatewayContext,
  runtime: GatewayRuntime,
  sent: SentCall<CallPlan>,
  format: WireFormat,
): Promise<GatewayResponse> {
  return sent.plan.stream ? relayStream(ctx, runtime, sent, { format }) : relayJsonBytes(ctx, runtime, sent);
}
