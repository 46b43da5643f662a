/**
 * Turns a sent upstream call into the client's response: JSON (checked
 * complete) relayed as bytes or translated, or an SSE stream relayed or translated; and reports
 * the call's usage once it is known.
 *
 * @internal
 */
import { streamHealth } from '../routing/attempt-health.js';
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import { readResponseMeta } from '../observability/genai-attributes.js';
import { withResponseMeta } from '../observability/stream-meta.js';
import { relaySse, type RelaySseOptions, type StreamTransform } from '../sse/relay-stream.js';
import { SSE_HEADERS } from '../sse/sse-headers.js';
import { createUsageObserver, readUsage, type UsageObserver } from '../sse/usage-observer.js';
import { isGatewayError } from '../errors.js';
import type { BytesResponse, GatewayResponse, JsonResponse, SseResponse, WireFormat } from '../types.js';
import { type CallPlan, clientAbort, relayedHeaders, type SentCall, upstreamFailure } from './call-upstream.js';
import { checkEventStream, type CompleteJson, readCompleteJson } from './check-upstream-answer.js';
import { reportUsage, type UsageOutcome, usageReporter } from './report-usage.js';
import type { StreamFill } from '../cache/cache-fill.js';
import { requestRedactor } from '../redact/gateway-redactor.js';

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** The usage record's view of what the cache did (a hit charges no tokens). */
function cacheOutcome(sent: SentCall<CallPlan>): Pick<UsageOutcome, 'cache'> {
  const cache = sent.cache;
  if (!cache) return {};
  return { cache: cache.ageSeconds === undefined ? { result: cache.result } : { result: cache.result, ageSeconds: cache.ageSeconds } };
}

/** Throws the caller-format error for a failed upstream answer (after reporting it). */
/** An upstream's failure status (not 2xx): reported and thrown in the caller's terms. */
async function throwUpstreamFailure(ctx: GatewayContext, runtime: GatewayRuntime, sent: SentCall<CallPlan>): Promise<never> {
  throw reportFailure(ctx, runtime, sent, await upstreamFailure(ctx, sent, runtime.redactor));
}

/** Reports a call that ends in `thrown` (to `onUsage`; `aborted` when the client left) and returns it, for throwing. */
function reportFailure(ctx: GatewayContext, runtime: GatewayRuntime, sent: SentCall<CallPlan>, thrown: unknown): unknown {
  const status = isGatewayError(thrown) ? thrown.status : 502;
  // Nothing to store: the key's lock is given back and its waiters go upstream themselves.
  sent.cache?.fill?.release();
  reportUsage(ctx, runtime, {
    status, stream: sent.plan.stream, usage: {}, aborted: clientAbort(ctx).aborted, target: sent.plan.target, firstByteAt: sent.headAt,
    observation: sent.observation,
    ...cacheOutcome(sent),
    // A 2xx head the gateway refused (not complete JSON, not SSE, cut by a time-out): the attempt failed as the client sees it.
    ...(isGatewayError(thrown) && isSuccess(sent.response.status) ? { error: thrown } : {}),
  });
  return thrown;
}

/**
 * Reads a non-streamed answer whole, checked complete (see
 * `readCompleteJson`), within the request's deadline; failures, the
 * upstream's or the answer's, are reported and thrown in the caller's terms.
 */
function readCheckedJson(ctx: GatewayContext, runtime: GatewayRuntime, sent: SentCall<CallPlan>): Promise<CompleteJson> {
  // Whatever the outcome, the answer is in (or refused): the deadline is over.
  const clear = (): void => sent.deadline.release();
  if (!isSuccess(sent.response.status)) return throwUpstreamFailure(ctx, runtime, sent).finally(clear);
  // A success costs one promise beyond the body's read.
  return readCompleteJson(sent.response, sent.plan.target.upstream.name).then(
    (answer) => {
      clear();
      sent.cache?.fill?.json(answer.json, sent.plan.target);
      return answer;
    },
    (error: unknown) => {
      clear();
      throw reportFailure(ctx, runtime, sent, error);
    },
  );
}

/** Reports the usage of a complete JSON answer; nothing is read or built when nobody listens. */
function reportJsonUsage(ctx: GatewayContext, runtime: GatewayRuntime, sent: SentCall<CallPlan>, json: Record<string, unknown>, status: number): void {
  const report = usageReporter(ctx, runtime);
  if (!report) return;
  const format = sent.plan.target.upstream.format;
  report({
    status,
    stream: false,
    usage: readUsage(format, json),
    aborted: false,
    target: sent.plan.target,
    firstByteAt: sent.headAt,
    ...(sent.observation ? { meta: readResponseMeta(format, json), observation: sent.observation } : {}),
    ...cacheOutcome(sent),
  });
}

/** Parses a whole JSON answer, reports its usage and returns it (for translation). */
export async function readSuccessJson(ctx: GatewayContext, runtime: GatewayRuntime, sent: SentCall<CallPlan>): Promise<unknown> {
  const { json } = await readCheckedJson(ctx, runtime, sent);
  // The translated answer the client gets is a 200.
  reportJsonUsage(ctx, runtime, sent, json, 200);
  return json;
}

/** A translated JSON answer. */
export function jsonResponse(sent: SentCall<CallPlan>, body: unknown): JsonResponse {
  return { type: 'json', status: 200, headers: relayedHeaders(sent.response, { rateLimits: sent.relayRateLimits }), body };
}

/**
 * Relays a same-format JSON answer as the bytes the upstream sent (no
 * re-serialisation). The body is read whole and checked complete first, so
 * the client gets either the whole answer, in one write, or a clean error
 * (never a 200 with a broken body); the cost is measured in BENCHMARKS.md.
 */
export function relayJsonBytes(ctx: GatewayContext, runtime: GatewayRuntime, sent: SentCall<CallPlan>): Promise<BytesResponse> {
  return readCheckedJson(ctx, runtime, sent).then((answer) => bytesAnswer(ctx, runtime, sent, answer));
}

function bytesAnswer(ctx: GatewayContext, runtime: GatewayRuntime, sent: SentCall<CallPlan>, { bytes, json }: CompleteJson): BytesResponse {
  const { response, plan } = sent;
  const headers = relayedHeaders(response, { rateLimits: sent.relayRateLimits });
  headers['content-type'] = response.headers['content-type'] ?? 'application/json';
  headers['content-length'] = String(bytes.byteLength);
  reportJsonUsage(ctx, runtime, sent, json, response.status);
  return { type: 'bytes', status: response.status, headers, body: bytes };
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
  const { deadline } = sent;
  try {
    if (!isSuccess(sent.response.status)) await throwUpstreamFailure(ctx, runtime, sent);
    try {
      await checkEventStream(sent.response, sent.plan.target.upstream.name);
    } catch (error) {
      throw reportFailure(ctx, runtime, sent, error);
    }
  } catch (error) {
    deadline.release();
    // A refusal that came before reportFailure (none today) must not hold the key either.
    sent.cache?.fill?.release();
    throw error;
  }
  // The deadline covers the wait for a stream's head; the stream itself is bounded by the upstream's idle time-out and `streamBounds`.
  // Until the relay ends, the deadline still passes the client's abort on to the upstream (`call.signal`).
  deadline.clear();
  const { response, plan } = sent;
  const { target } = plan;
  const upstreamFormat = target.upstream.format;
  // The relay's callbacks live as long as the stream: they hold the few values they need, not ctx or the plan (request bodies).
  const report = usageReporter(ctx, runtime);
  const { observation } = sent;
  const usageObserver = report ? createUsageObserver(upstreamFormat) : undefined;
  const metaObserver = usageObserver && observation ? withResponseMeta(usageObserver, upstreamFormat) : undefined;
  const observer = metaObserver ?? usageObserver;
  // A miss records the answer as it passes, to store it once the stream completed.
  const filling = sent.cache?.fill?.stream(target);
  const cache = cacheOutcome(sent);
  const headAt = sent.headAt;
  // Drain mode: after a client left, the relay's onEnd (below) ends the call once the rest is read; the request waits for it.
  if (report && observer && ctx.route?.onClientAbort === 'drain') observation?.relayed();
  let ended = false;
  let releaseSlot: (() => void) | undefined;
  const { settleStream } = sent;
  const { admission } = runtime;
  const body = relaySse({
    upstream: response.body,
    format: options.format,
    upstreamFormat,
    heartbeatMs: runtime.heartbeatMs,
    bounds: runtime.streamBounds,
    signal: clientAbort(ctx),
    onClientAbort: ctx.route?.onClientAbort ?? 'abort',
    upstreamName: target.upstream.name,
    redactor: requestRedactor(runtime.redactor, ctx),
    ...(options.transform ? { transform: options.transform } : {}),
    ...streamObservers(observer, filling),
    ...(observation?.onChunk ? { onChunk: observation.onChunk } : {}),
    ...(ctx.limitTouch ? { onProgress: ctx.limitTouch } : {}),
    onEnd: (outcome) => {
      ended = true;
      filling?.end(outcome.status === 'completed');
      // A client that left (and no drain read the rest): call.signal fires even when the relay heard of it first.
      if (outcome.status === 'aborted' && outcome.drained !== true) deadline.abandon();
      else deadline.release();
      // How the stream ended is what it says of its target: a stream its upstream broke off counts as a failed attempt (a shutdown's interruption does not).
      if (settleStream && !(outcome.status === 'failed' && admission.stopped)) settleStream(streamHealth(outcome.status, outcome.error));
      // The call's place is given back once its usage is reported (a shutdown waits for both).
      if (!report || !observer) return releaseSlot?.();
      report({
        status: 200,
        stream: true,
        usage: observer.usage,
        aborted: outcome.status === 'aborted',
        target,
        firstByteAt: outcome.firstEventAt ?? headAt,
        ...(observation ? { observation, ...(metaObserver ? { meta: metaObserver.meta } : {}) } : {}),
        ...(outcome.error ? { error: outcome.error } : {}),
        ...cache,
      });
      releaseSlot?.();
    },
  });
  // The stream holds the call's place until it ends (unless it already did: a client gone before it started).
  if (!ended) releaseSlot = ctx.slot?.hold(body);
  // relayedHeaders builds a fresh object: the SSE headers (which win) go into it rather than into a spread copy.
  return { type: 'sse', status: 200, headers: Object.assign(relayedHeaders(response, { rateLimits: sent.relayRateLimits }), SSE_HEADERS), body };
}

/** The relay's `onEvent` for the usage observer and a cache recorder; the recorder needs every event decoded. */
function streamObservers(observer: UsageObserver | undefined, filling: StreamFill | undefined): Pick<RelaySseOptions, 'onEvent' | 'observes'> {
  if (filling && observer) {
    return {
      onEvent: (event) => {
        observer.observe(event);
        filling.observe(event);
      },
    };
  }
  if (filling) return { onEvent: (event) => filling.observe(event) };
  return observer ? { onEvent: (event) => observer.observe(event), observes: (raw) => observer.observes(raw) } : {};
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
