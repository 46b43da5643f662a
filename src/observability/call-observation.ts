/**
 * What the gateway observes of one model call (one `sendPlans`): a CLIENT
 * span per upstream attempt (retries and fallbacks each get their own), the
 * GenAI client metrics, the Prometheus call metrics and a log line per
 * upstream fault.
 *
 * @internal
 */
import { performance } from 'node:perf_hooks';
import type { GatewayError } from '../errors.js';
import type { TokenUsage } from '../usage.js';
import type { CallPlan } from '../routing/call-plan.js';
import type { Route, RouteTarget } from '../routing/routes.js';
import type { RoutingDecision } from '../routing/order-targets.js';
import type { AttemptRecord } from '../routing/send-with-fallback.js';
import type { SkippedTarget } from '../routing/target-gate.js';
import { truncateCallerText } from '../truncate-caller-text.js';
import {
  addRequestParameters,
  addResponseAttributes,
  addUsageAttributes,
  type Attributes,
  contentAttributes,
  inputTokensOf,
  providerName,
  type ResponseMeta,
} from './genai-attributes.js';
import { OTHER_MODEL_LABEL } from './model-label.js';
import type { Span } from './otel-signals.js';
import type { ObservabilitySignals } from './observability-signals.js';
import type { PrometheusMetrics } from './prometheus-metrics.js';

/** How a model call ended, as the handlers report it (with its usage record). */
export interface CallEnd {
  stream: boolean;
  usage: TokenUsage;
  meta?: ResponseMeta;
  aborted: boolean;
  /** `performance.now()` of the first upstream event (streams) or the response head. */
  firstByteAt: number | undefined;
  /** A failure after the response started (cut stream, in-band error event). */
  error?: GatewayError;
}

/**
 * The request's observation, as its calls see it: the signals and labels
 * they read and what they add to the request (attempts, usage, faults).
 * `RequestObservation` is one; the call does not need the rest.
 */
export interface ParentObservation {
  readonly signals: ObservabilitySignals;
  readonly span: Span | undefined;
  /** The request's model label (`none` until known). */
  readonly modelLabel: string;
  readonly principalLabel: string;
  /** The route the request resolved to, once it has. */
  readonly route: Route | undefined;
  attempts: number;
  upstream: string | undefined;
  addUsage(usage: TokenUsage, timeToFirstChunk: number | undefined): void;
  logFault(record: AttemptRecord): void;
  /** A relayed call ended: a request end that waited for it happens now. */
  callEnded(): void;
}

interface Attempt {
  target: RouteTarget;
  startedAt: number;
  span: Span | undefined;
  /** Metric attributes: operation, provider, request model (its label: see model-label.ts), server. */
  attributes: Attributes;
  record?: AttemptRecord;
}

/** Gaps buffered before they are recorded (keeps per-event work to a clock read and a push). */
const MAX_BUFFERED_GAPS = 512;

const OPERATION_NAMES: Partial<Record<CallPlan['operation'], string>> = {
  'chat.completions': 'chat',
  messages: 'chat',
  'messages.count_tokens': 'count_tokens',
  embeddings: 'embeddings',
};

/** `error.type` of a gateway error: its code in lower case (`upstream_timeout`, `rate_limited`). */
export function errorTypeOf(error: GatewayError): string {
  return error.code.toLowerCase();
}

/** Adds `count` tokens of `type` to `tokens_total` (nothing for none). */
function addTokens(prometheus: PrometheusMetrics, model: string, upstream: string, principal: string | undefined, type: string, count: number | undefined): void {
  if (count === undefined || count <= 0) return;
  prometheus.tokens.inc(principal === undefined ? { model, upstream, type } : { model, upstream, type, principal }, count);
}

export class CallObservation {
  private current: Attempt | undefined;
  private ended = false;
  /** A stream relay will end this call (`relayed`): the request waits for it rather than abandoning it. */
  private relaying = false;
  private lastChunkAt: number | undefined;
  private readonly gaps: number[] = [];
  private chunkListener: (() => void) | undefined;
  /** How the route chose among its deployments (routes with several targets), for the attempts' spans. */
  routing: RoutingDecision | undefined;

  constructor(private readonly request: ParentObservation) {}

  /** The metric label of an upstream model id (the request's route labels the ids it does not name). */
  private modelLabel(model: string): string {
    return this.request.signals.modelLabel(model, this.request.route) ?? OTHER_MODEL_LABEL;
  }

  /**
   * Called for every upstream stream event; set only when a metric wants chunk timings (made on first use: streams only).
   * None for a call that made no attempt (an answer replayed from the cache): its events are not an upstream's.
   */
  get onChunk(): (() => void) | undefined {
    const { otel, prometheus } = this.request.signals;
    if ((!otel && !prometheus) || !this.current) return undefined;
    return (this.chunkListener ??= () => this.chunk());
  }

  /** Before each attempt: starts its span; returns the headers to send (with `traceparent` when tracing). */
  attempt(target: RouteTarget, plan: CallPlan, headers: Record<string, string>): Record<string, string> {
    const previous = this.current;
    if (previous) this.endFailedAttempt(previous);
    const { otel, prometheus } = this.request.signals;
    if (previous && prometheus) {
      if (previous.target === target) prometheus.retries.inc({ upstream: target.upstream.name });
      else prometheus.fallbacks.inc({ upstream: previous.target.upstream.name });
    }
    const format = target.upstream.format;
    const operation = OPERATION_NAMES[plan.operation] ?? plan.operation;
    const attributes: Attributes = {
      'gen_ai.operation.name': operation,
      'gen_ai.provider.name': target.upstream.provider ?? providerName(format),
      // A metric keeps a series per value: the label, not an id a caller may have chosen.
      'gen_ai.request.model': this.modelLabel(target.model),
    };
    const server = target.upstream.server;
    if (server) {
      attributes['server.address'] = server.address;
      attributes['server.port'] = server.port;
    }
    const attempt: Attempt = { target, startedAt: performance.now(), span: undefined, attributes };
    this.current = attempt;
    this.request.attempts++;
    this.request.upstream = target.upstream.name;
    if (!otel) return headers;
    // Built in place: this runs for every upstream attempt.
    const spanAttributes = addRequestParameters(Object.assign({}, attributes), format, plan.body);
    // A span is one record: it names the model id itself, cut to a bounded length.
    const model = truncateCallerText(target.model);
    spanAttributes['gen_ai.request.model'] = model;
    spanAttributes['gen_ai.request.stream'] = plan.stream;
    spanAttributes['modelgate.upstream'] = target.upstream.name;
    if (this.routing) {
      spanAttributes['modelgate.route.strategy'] = this.routing.strategy;
      if (this.routing.affinity) spanAttributes['modelgate.route.affinity'] = this.routing.affinity;
    }
    if (otel.captureContent) Object.assign(spanAttributes, contentAttributes(format, plan.body));
    attempt.span = otel.startAttempt(this.request.span!, `${operation} ${model}`, spanAttributes);
    return otel.inject(attempt.span, headers);
  }

  /** After each attempt (`sendWithFallback`'s `onAttempt`). */
  readonly attempted = (record: AttemptRecord): void => {
    const attempt = this.current;
    if (!attempt) return;
    attempt.record = record;
    if (record.error || record.retryable) this.request.logFault(record);
  };

  /** A target was skipped because it cools: an event on the request's span. */
  readonly skipped = (target: SkippedTarget): void => {
    this.request.span?.addEvent('modelgate.upstream.skipped', {
      'modelgate.upstream': target.upstream,
      'gen_ai.request.model': truncateCallerText(target.model),
      'modelgate.cooling.cause': target.cause,
      'modelgate.cooling.remaining_ms': Math.round(target.remainingMs),
    });
  };

  /** `sendWithFallback` threw: the last attempt is over. */
  failed(): void {
    if (this.current) this.endFailedAttempt(this.current);
    this.current = undefined;
    this.ended = true;
  }

  /**
   * A stream relay in drain mode took the answer: after the client left it
   * calls `end` once the rest was read and its usage counted, so the
   * request's own end waits for it (other relays end their call when the
   * client leaves, before the request ends).
   */
  relayed(): void {
    this.relaying = true;
  }

  /** True while a relayed stream has not ended its call. */
  get pending(): boolean {
    return this.relaying && !this.ended && this.current !== undefined;
  }

  /**
   * The call's answer was used up (or failed): ends the last attempt's span with what the answer said.
   * A call with no attempt (a cache hit) records nothing here: the request's own span says what it was (`RequestObservation.noteCache`).
   */
  end(outcome: CallEnd): void {
    const attempt = this.current;
    if (this.ended || !attempt) return;
    this.ended = true;
    try {
      this.record(attempt, outcome);
    } finally {
      if (this.relaying) this.request.callEnded();
    }
  }

  private record(attempt: Attempt, outcome: CallEnd): void {
    const now = performance.now();
    const status = attempt.record?.status;
    const errorType = outcome.error ? errorTypeOf(outcome.error) : status !== undefined && (status < 200 || status >= 300) ? String(status) : undefined;
    const meta = outcome.meta ?? {};
    // Never mutated once recorded: the metrics SDK keeps the attribute objects it is given.
    const metricAttributes = meta.model === undefined
      ? attempt.attributes
      : Object.assign({}, attempt.attributes, { 'gen_ai.response.model': meta.model === attempt.target.model ? attempt.attributes['gen_ai.request.model']! : this.modelLabel(meta.model) });
    const ttfc = outcome.stream && outcome.firstByteAt !== undefined && outcome.firstByteAt >= attempt.startedAt
      ? (outcome.firstByteAt - attempt.startedAt) / 1000
      : undefined;
    this.request.addUsage(outcome.usage, ttfc);
    const { otel, prometheus } = this.request.signals;
    const input = inputTokensOf(outcome.usage);
    if (otel) {
      const attributes = addUsageAttributes(addResponseAttributes({}, meta), outcome.usage);
      if (status !== undefined) attributes['http.response.status_code'] = status;
      if (ttfc !== undefined) attributes['gen_ai.response.time_to_first_chunk'] = ttfc;
      if (outcome.aborted) attributes['modelgate.client_aborted'] = true;
      if (attempt.span) otel.end(attempt.span, attributes, errorType);
      otel.duration.record((now - attempt.startedAt) / 1000, errorType === undefined ? metricAttributes : Object.assign({}, metricAttributes, { 'error.type': errorType }));
      if (input !== undefined) otel.tokenUsage.record(input, Object.assign({}, metricAttributes, { 'gen_ai.token.type': 'input' }));
      if (outcome.usage.outputTokens !== undefined) {
        otel.tokenUsage.record(outcome.usage.outputTokens, Object.assign({}, metricAttributes, { 'gen_ai.token.type': 'output' }));
      }
      if (ttfc !== undefined) otel.timeToFirstChunk.record(ttfc, metricAttributes);
    }
    if (prometheus) {
      const model = this.request.modelLabel;
      const upstream = attempt.target.upstream.name;
      if (ttfc !== undefined) prometheus.timeToFirstToken.observe({ model, upstream }, ttfc);
      const principal = prometheus.principalLabel ? this.request.principalLabel : undefined;
      const { usage } = outcome;
      addTokens(prometheus, model, upstream, principal, 'input', input);
      addTokens(prometheus, model, upstream, principal, 'output', usage.outputTokens);
      addTokens(prometheus, model, upstream, principal, 'cache_read', usage.cacheReadInputTokens);
      addTokens(prometheus, model, upstream, principal, 'cache_creation', usage.cacheCreationInputTokens);
    }
    this.flushGaps(metricAttributes);
  }

  /** Ends a call the request finished without an `end` (a body that failed to read, an unused answer). */
  abandon(): void {
    if (this.ended || !this.current) return;
    this.end({ stream: false, usage: {}, aborted: false, firstByteAt: undefined });
  }

  private chunk(): void {
    const now = performance.now();
    if (this.lastChunkAt !== undefined) {
      this.gaps.push((now - this.lastChunkAt) / 1000);
      if (this.gaps.length >= MAX_BUFFERED_GAPS && this.current) this.flushGaps(this.current.attributes);
    }
    this.lastChunkAt = now;
  }

  private flushGaps(attributes: Attributes): void {
    if (this.gaps.length === 0 || !this.current) return;
    const { otel, prometheus } = this.request.signals;
    const child = prometheus?.interToken.labels({ model: this.request.modelLabel, upstream: this.current.target.upstream.name });
    for (const gap of this.gaps) {
      otel?.timePerOutputChunk.record(gap, attributes);
      child?.observe(gap);
    }
    this.gaps.length = 0;
  }

  /** A retried or failed attempt: its span and duration end with the status or error it got. */
  private endFailedAttempt(attempt: Attempt): void {
    const { otel } = this.request.signals;
    if (!otel) return;
    const record = attempt.record;
    const errorType = record?.error ? errorTypeOf(record.error) : record?.status !== undefined ? String(record.status) : 'cancelled';
    const attributes: Attributes = record?.status !== undefined ? { 'http.response.status_code': record.status } : {};
    if (attempt.span) otel.end(attempt.span, attributes, errorType);
    otel.duration.record((performance.now() - attempt.startedAt) / 1000, { ...attempt.attributes, 'error.type': errorType });
  }
}
