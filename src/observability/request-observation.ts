/**
 * What the gateway observes of one request: its span, its Prometheus
 * request metrics and its log line, ended when the response is sent (for a
 * streamed body, when the stream ends). Created by `begin` only when an
 * observability option is set.
 *
 * @internal
 */
import { performance } from 'node:perf_hooks';
import type { GatewayError } from '../errors.js';
import type { GatewayResponse } from '../types.js';
import type { TokenUsage } from '../usage.js';
import type { AttemptRecord } from '../routing/send-with-fallback.js';
import { addCacheAttributes, addCacheLogFields, type CachedAnswerFigures, type CacheOutcome, countCacheResult } from './cache-observation.js';
import { CallObservation, errorTypeOf, type ParentObservation } from './call-observation.js';
import type { Attributes } from './genai-attributes.js';
import { type ModelLabel, OTHER_MODEL_LABEL } from './model-label.js';
import { observeBody } from './observe-body.js';
import type { ObservabilitySignals } from './observability-signals.js';
import type { ObservedContext } from './observed-context.js';
import type { Span } from './otel-signals.js';
import { type AbortSource, abortSourceOf } from '../signals/abort-source.js';
import type { Route } from '../routing/routes.js';
import { truncateCallerText } from '../truncate-caller-text.js';

/** Route templates of the endpoints (the span name's `http.route`). */
const ROUTES: Record<string, string> = {
  'chat.completions': '/v1/chat/completions',
  messages: '/v1/messages',
  'messages.count_tokens': '/v1/messages/count_tokens',
  embeddings: '/v1/embeddings',
  'models.list': '/v1/models',
  'models.retrieve': '/v1/models/{model}',
  'files.list': '/v1/files',
  'files.upload': '/v1/files',
  'files.retrieve': '/v1/files/{file_id}',
  'files.delete': '/v1/files/{file_id}',
  'files.content': '/v1/files/{file_id}/content',
  'responses.create': '/v1/responses',
  'responses.input_tokens': '/v1/responses/input_tokens',
  'responses.retrieve': '/v1/responses/{response_id}',
  'responses.delete': '/v1/responses/{response_id}',
  'responses.input_items': '/v1/responses/{response_id}/input_items',
};

/** The model the caller asked for: the body's, or the catalog entry a rule rejected before the body was kept. */
function requestedModel(ctx: ObservedContext): string | undefined {
  const model = ctx.body?.model;
  return typeof model === 'string' ? model : ctx.model?.id;
}

/**
 * The model label: a model the gateway serves by name (a catalog model or an
 * exact-string route), also when the request was refused before it was routed
 * (a rule, a model the key may not use); else the label of the configured
 * route that serves it (`gpt-*`, `/^gpt-/`, `route:2`); else `other`; `none`
 * before one is known.
 */
function modelLabelOf(ctx: ObservedContext, modelLabel: ModelLabel): string {
  const model = requestedModel(ctx);
  if (model === undefined) return 'none';
  if (ctx.model) return ctx.model.id;
  return modelLabel(model, ctx.route?.route) ?? OTHER_MODEL_LABEL;
}

/** What is kept of the context once the response is out (not the context itself: it holds the bodies). */
interface Summary {
  requestId: string;
  endpoint: string;
  principalId: string | undefined;
  model: string | undefined;
  stream: boolean;
  /** The client's aborts (read for `aborted` at the end; see abort-source.ts for why not an AbortSignal). */
  signal: AbortSource;
}

export class RequestObservation implements ParentObservation {
  readonly span: Span | undefined;
  attempts = 0;
  upstream: string | undefined;
  modelLabel = 'none';
  principalLabel = 'none';
  /** The route the request resolved to, once it has (labels the upstream model ids of its attempts). */
  route: Route | undefined;
  private readonly startedAt: number;
  private readonly requestId: string;
  private error: GatewayError | undefined;
  private readonly calls: CallObservation[] = [];
  private usage: TokenUsage | undefined;
  private timeToFirstChunk: number | undefined;
  /** What the response cache did, when the gateway has one. */
  private cache: CacheOutcome | undefined;
  /** A hit's stored answer: its figures go on the request's span (no CLIENT span carries them). */
  private cachedAnswer: CachedAnswerFigures | undefined;
  private done = false;
  /** The context until the gateway answers: lets `closed` end a request the app answered itself. Not kept after (it holds the bodies). */
  private context: ObservedContext | undefined;
  /** The response ended while a relayed stream call was still counting (drain mode): ends when that call does. */
  private deferred: { summary: Summary; status: number; endedAt: number } | undefined;

  constructor(readonly signals: ObservabilitySignals, ctx: ObservedContext) {
    this.startedAt = ctx.startedAt;
    this.requestId = ctx.requestId;
    this.context = ctx;
    const endpoint = ctx.endpoint?.name;
    const route = endpoint ? ROUTES[endpoint] : undefined;
    const method = ctx.request.method.toUpperCase();
    if (signals.otel) {
      const attributes: Attributes = { 'http.request.method': method, 'modelgate.request_id': ctx.requestId };
      if (route) attributes['http.route'] = route;
      this.span = signals.otel.startRequest(ctx.request, route ? `${method} ${route}` : method, attributes);
    }
  }

  /** A model call starts (one per `sendPlans`). */
  call(ctx: ObservedContext): CallObservation {
    this.label(ctx);
    const call = new CallObservation(this);
    this.calls.push(call);
    return call;
  }

  /** The error the response will render. */
  failed(error: GatewayError): void {
    this.error = error;
  }

  /** Sums a call's usage into the request's log line. */
  addUsage(usage: TokenUsage, timeToFirstChunk: number | undefined): void {
    const total = (this.usage ??= {});
    for (const key of ['inputTokens', 'outputTokens', 'cacheReadInputTokens', 'cacheCreationInputTokens'] as const) {
      const value = usage[key];
      if (value !== undefined) total[key] = (total[key] ?? 0) + value;
    }
    if (timeToFirstChunk !== undefined && this.timeToFirstChunk === undefined) this.timeToFirstChunk = timeToFirstChunk;
  }

  /**
   * What the response cache did for this request (its span, log line and
   * the cache counters say it); on a hit, with the stored answer, whose
   * usage counts in the log line as a call's would. The last word wins.
   */
  noteCache(cache: CacheOutcome, answer?: CachedAnswerFigures): void {
    this.cache = cache;
    if (cache.result !== 'hit' || !answer || this.cachedAnswer) return;
    this.cachedAnswer = answer;
    this.addUsage(answer.usage, undefined);
  }

  /** One warn line per upstream fault (connection error, time-out, 429, 5xx): never a message text, only codes. */
  logFault(record: AttemptRecord): void {
    this.signals.logger?.warn({
      requestId: this.requestId,
      upstream: record.upstream,
      upstreamModel: truncateCallerText(record.model),
      ...(record.status !== undefined ? { status: record.status } : {}),
      ...(record.error ? { errorType: errorTypeOf(record.error) } : {}),
      retryable: record.retryable,
      durationMs: Math.round(record.durationMs),
    }, 'modelgate upstream fault');
  }

  /** The response is ready: ends now, or when its streamed body ends. */
  respond(ctx: ObservedContext, response: GatewayResponse): GatewayResponse {
    this.context = undefined;
    this.label(ctx);
    const summary = this.summarize(ctx, response.type === 'sse');
    const body = response.body;
    if (response.type === 'json' || body instanceof Uint8Array) {
      this.end(summary, response.status);
      return response;
    }
    const gauge = response.type === 'sse' ? this.signals.prometheus?.openStreams : undefined;
    gauge?.inc({ endpoint: summary.endpoint });
    const observed = observeBody(body as AsyncIterable<Uint8Array>, () => {
      gauge?.dec({ endpoint: summary.endpoint });
      this.end(summary, response.status);
    });
    return { ...response, body: observed } as GatewayResponse;
  }

  /**
   * Adapters: the HTTP response is over. When the gateway never answered
   * (the app did, between composable steps), the request ends now with the
   * status the app sent; otherwise nothing (the gateway's answer ends it).
   */
  closed(status: number): void {
    const ctx = this.context;
    if (!ctx) return;
    this.context = undefined;
    this.label(ctx);
    this.end(this.summarize(ctx, false), status);
  }

  private summarize(ctx: ObservedContext, stream: boolean): Summary {
    const model = requestedModel(ctx);
    return {
      requestId: ctx.requestId,
      endpoint: ctx.endpoint?.name ?? 'unmatched',
      principalId: ctx.principal === undefined ? undefined : truncateCallerText(ctx.principal.id),
      model: model === undefined ? undefined : truncateCallerText(model),
      stream,
      signal: abortSourceOf(ctx.request),
    };
  }

  private label(ctx: ObservedContext): void {
    this.modelLabel = modelLabelOf(ctx, this.signals.modelLabel);
    this.route = ctx.route?.route;
    // The principal id is the operator's (keys or `verify`), but `verify` may build it from anything.
    if (ctx.principal) this.principalLabel = truncateCallerText(ctx.principal.id);
  }

  /** A relayed call ended: a request end that waited for it happens now. */
  callEnded(): void {
    const deferred = this.deferred;
    if (!deferred || this.calls.some((call) => call.pending)) return;
    this.deferred = undefined;
    this.finish(deferred.summary, deferred.status, deferred.endedAt);
  }

  private end(summary: Summary, status: number): void {
    if (this.done || this.deferred) return;
    const endedAt = performance.now();
    // A client that left a stream relayed in drain mode: its usage is still being read; the request ends with it.
    if (this.calls.some((call) => call.pending)) {
      this.deferred = { summary, status, endedAt };
      return;
    }
    this.finish(summary, status, endedAt);
  }

  private finish(summary: Summary, status: number, endedAt: number): void {
    if (this.done) return;
    this.done = true;
    for (const call of this.calls) call.abandon();
    const seconds = (endedAt - this.startedAt) / 1000;
    const error = this.error;
    const errorType = error ? errorTypeOf(error) : status >= 500 ? String(status) : undefined;
    const aborted = summary.signal.aborted;
    const { otel, prometheus, logger } = this.signals;
    if (otel && this.span) {
      const attributes: Attributes = { 'http.response.status_code': status, 'modelgate.endpoint': summary.endpoint };
      if (summary.model !== undefined) attributes['gen_ai.request.model'] = summary.model;
      if (summary.principalId !== undefined) attributes['modelgate.principal.id'] = summary.principalId;
      if (summary.endpoint === 'chat.completions' || summary.endpoint === 'messages' || summary.endpoint === 'responses.create') {
        attributes['gen_ai.operation.name'] = 'chat';
      } else if (summary.endpoint === 'embeddings') {
        attributes['gen_ai.operation.name'] = 'embeddings';
      }
      if (this.attempts > 0) attributes['modelgate.upstream_attempts'] = this.attempts;
      if (aborted) attributes['modelgate.client_aborted'] = true;
      if (this.cache) addCacheAttributes(attributes, this.cache, this.cachedAnswer);
      otel.end(this.span, attributes, errorType);
    }
    if (this.cache) countCacheResult(this.signals, this.cache.result, { endpoint: summary.endpoint, model: this.modelLabel, principal: this.principalLabel });
    if (prometheus) {
      const upstream = this.upstream ?? 'none';
      const principal = prometheus.principalLabel ? { principal: this.principalLabel } : {};
      prometheus.requests.inc({ endpoint: summary.endpoint, model: this.modelLabel, upstream, status: String(status), ...principal });
      prometheus.duration.observe({ endpoint: summary.endpoint, model: this.modelLabel, upstream }, seconds);
      // A 429 with no upstream attempt is the gateway's own (a limit), not a relayed upstream one.
      if (status === 429 && this.attempts === 0) prometheus.limitRejections.inc({ endpoint: summary.endpoint, ...principal });
    }
    if (logger) {
      const usage = this.usage;
      const line: Record<string, unknown> = {
        requestId: summary.requestId,
        principalId: summary.principalId,
        endpoint: summary.endpoint,
        model: summary.model,
        upstream: this.upstream,
        status,
        stream: summary.stream,
        durationMs: Math.round(seconds * 1000),
      };
      if (this.timeToFirstChunk !== undefined) line.timeToFirstChunkMs = Math.round(this.timeToFirstChunk * 1000);
      if (this.attempts > 1) line.attempts = this.attempts;
      if (usage) Object.assign(line, usage);
      if (errorType !== undefined) line.errorType = errorType;
      if (aborted) line.aborted = true;
      if (this.cache) addCacheLogFields(line, this.cache);
      const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
      logger[level](line, 'modelgate request');
    }
  }
}
