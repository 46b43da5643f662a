/**
 * Turns a sent upstream call into the client's response: JSON relayed as
 * bytes or translated, or an SSE stream relayed or translated; and reports
 * the call's usage once it is known.
 *
 * @internal
 */
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import { relaySse, type StreamTransform } from '../sse/relay-stream.js';
import { createSseHeaders } from '../sse/sse-headers.js';
import { createUsageObserver, readUsage } from '../sse/usage-observer.js';
import type { BytesResponse, GatewayResponse, JsonResponse, SseResponse, WireFormat } from '../types.js';
import { type CallPlan, readUpstreamJson, relayedHeaders, type SentCall, upstreamFailure } from './call-upstream.js';
import { reportUsage, wantsUsage } from './report-usage.js';

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** Throws the caller-format error for a failed upstream answer (after reporting it). */
async function failIfUnsuccessful(ctx: GatewayContext, runtime: GatewayRuntime, sent: SentCall<CallPlan>): Promise<void> {
  if (isSuccess(sent.response.status)) return;
  const error = await upstreamFailure(ctx, sent);
  reportUsage(ctx, runtime, {
    status: error.status, stream: sent.plan.stream, usage: {}, aborted: false, target: sent.plan.target, firstByteAt: sent.headAt,
  });
  throw error;
}

/** Parses a whole JSON answer, reports its usage and returns it (for translation). */
export async function readSuccessJson(ctx: GatewayContext, runtime: GatewayRuntime, sent: SentCall<CallPlan>): Promise<unknown> {
  await failIfUnsuccessful(ctx, runtime, sent);
  const json = await readUpstreamJson(sent);
  reportUsage(ctx, runtime, {
    status: 200,
    stream: false,
    usage: readUsage(sent.plan.target.upstream.format, json),
    aborted: false,
    target: sent.plan.target,
    firstByteAt: sent.headAt,
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

/** Relays a same-format JSON answer as the bytes the upstream sent (no re-serialisation). */
export async function relayJsonBytes(ctx: GatewayContext, runtime: GatewayRuntime, sent: SentCall<CallPlan>): Promise<BytesResponse> {
  await failIfUnsuccessful(ctx, runtime, sent);
  const { response, plan } = sent;
  const headers = relayedHeaders(response);
  headers['content-type'] = response.headers['content-type'] ?? 'application/json';
  if (response.headers['content-length'] !== undefined) headers['content-length'] = response.headers['content-length'];
  let body: AsyncIterable<Uint8Array> = response.body;
  if (wantsUsage(runtime)) {
    body = teeForUsage(response.body, (chunks, aborted) => {
      let usage = {};
      try {
        usage = readUsage(plan.target.upstream.format, JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        // Usage is best-effort: an unparseable body still reached the client as sent.
      }
      reportUsage(ctx, runtime, { status: response.status, stream: false, usage, aborted, target: plan.target, firstByteAt: sent.headAt });
    });
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
  const upstreamFormat = plan.target.upstream.format;
  const observer = wantsUsage(runtime) ? createUsageObserver(upstreamFormat) : undefined;
  const body = relaySse({
    upstream: response.body,
    format: options.format,
    upstreamFormat,
    heartbeatMs: runtime.heartbeatMs,
    signal: ctx.request.signal,
    onClientAbort: ctx.route?.onClientAbort ?? 'abort',
    upstreamName: plan.target.upstream.name,
    ...(options.transform ? { transform: options.transform } : {}),
    ...(observer ? { onEvent: (event) => observer.observe(event) } : {}),
    onEnd: (outcome) => {
      reportUsage(ctx, runtime, {
        status: 200,
        stream: true,
        usage: observer?.usage ?? {},
        aborted: outcome.status === 'aborted',
        target: plan.target,
        firstByteAt: outcome.firstEventAt ?? sent.headAt,
      });
    },
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
