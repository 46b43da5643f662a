/**
 * The gateway's Prometheus metrics, registered on the app's prom-client
 * `Registry`. Labels are bounded: endpoint names, configured upstream names,
 * model ids served by name, configured route patterns (others count as
 * `other`), statuses, token types, and the
 * principal id only when `principalLabel` is set.
 *
 * @internal
 */
import type * as PromClient from 'prom-client';
import { loadOptional } from '../optional-peer.js';
import type { PrometheusOptions } from './options.js';
import type { PrometheusCounterLike, PrometheusGaugeLike, PrometheusHistogramLike } from './prometheus-shapes.js';
import { type CollectedGaugeLike, collectStates } from './upstream-state-gauge.js';
import { collectCacheBytes, type SettableGaugeLike } from './cache-bytes-gauge.js';

/** Latency buckets in seconds (request duration, time to first token). */
const LATENCY_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** Gaps between streamed chunks, in seconds. */
const GAP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export interface PrometheusMetrics {
  readonly principalLabel: boolean;
  requests: PrometheusCounterLike;
  duration: PrometheusHistogramLike;
  timeToFirstToken: PrometheusHistogramLike;
  interToken: PrometheusHistogramLike;
  tokens: PrometheusCounterLike;
  retries: PrometheusCounterLike;
  fallbacks: PrometheusCounterLike;
  limitRejections: PrometheusCounterLike;
  openStreams: PrometheusGaugeLike;
  /** Per upstream and upstream model id: 0 healthy, 1 half-open, 2 cooling (set at scrape time). */
  upstreamState: CollectedGaugeLike;
  cooldowns: PrometheusCounterLike;
  /** Model calls this instance serves (requests and open streams), as admission control counts them. */
  inFlight: PrometheusGaugeLike;
  /** Model calls refused by admission control or a shutdown, by reason. */
  admissionRefusals: PrometheusCounterLike;
  /** Model calls by response cache result (`hit`, `miss`, `bypass`); only requests of a gateway with a cache count. */
  cacheRequests: PrometheusCounterLike;
  /** What each guard decided, per call of a request or answer (`allow`, `replace`, `block`, `error`, `timeout`). */
  guardDecisions: PrometheusCounterLike;
  /**
   * The bytes the response cache holds (read from its stores at scrape time),
   * registered on first use: a gateway without a cache shows no such series.
   */
  cacheBytes(): SettableGaugeLike;
}

/** Creates and registers the metrics; a second gateway on the same registry reuses them. */
export function createPrometheusMetrics(options: PrometheusOptions): PrometheusMetrics {
  const prom = loadOptional<typeof PromClient>('prom-client', 'prometheus');
  const { registry } = options;
  if (!registry || typeof registry.registerMetric !== 'function') {
    throw new TypeError('createGateway: `prometheus.registry` must be a prom-client Registry (e.g. `new Registry()`).');
  }
  const prefix = options.prefix ?? 'modelgate_';
  const principal = options.principalLabel === true ? ['principal'] : [];
  // The app's registry is a prom-client `Registry` (checked above); its metric classes take it as such.
  const registers = [registry as PromClient.Registry];
  // Metrics already registered (another gateway on the same registry) are shared rather than re-registered (which throws).
  const reuse = <T>(name: string, make: () => T): T => (registry.getSingleMetric(prefix + name) as T | undefined) ?? make();
  const counter = (name: string, help: string, labelNames: string[]) =>
    reuse(name, () => new prom.Counter({ name: prefix + name, help, labelNames, registers }));
  const histogram = (name: string, help: string, labelNames: string[], buckets: number[]) =>
    reuse(name, () => new prom.Histogram({ name: prefix + name, help, labelNames, buckets, registers }));

  return {
    principalLabel: principal.length > 0,
    requests: counter('requests_total', 'Gateway requests by endpoint, model, upstream and HTTP status.', ['endpoint', 'model', 'upstream', 'status', ...principal]),
    duration: histogram('request_duration_seconds', 'Gateway request duration, to the last byte sent.', ['endpoint', 'model', 'upstream'], LATENCY_BUCKETS),
    timeToFirstToken: histogram('time_to_first_token_seconds', 'Streams: time from the upstream call to its first event.', ['model', 'upstream'], LATENCY_BUCKETS),
    interToken: histogram('inter_token_seconds', 'Streams: time between consecutive upstream events.', ['model', 'upstream'], GAP_BUCKETS),
    tokens: counter('tokens_total', 'Tokens by type (input includes cache_read and cache_creation).', ['model', 'upstream', 'type', ...principal]),
    retries: counter('upstream_retries_total', 'Upstream attempts retried on the same upstream.', ['upstream']),
    fallbacks: counter('upstream_fallbacks_total', 'Upstream calls that fell back from this upstream to the next.', ['upstream']),
    limitRejections: counter('limit_rejections_total', 'Requests the gateway itself answered with 429 (limits).', ['endpoint', ...principal]),
    openStreams: reuse('open_streams', () => new prom.Gauge({ name: `${prefix}open_streams`, help: 'Streamed responses in progress.', labelNames: ['endpoint'], registers })),
    upstreamState: reuse('upstream_state', () => new prom.Gauge({
      name: `${prefix}upstream_state`,
      help: 'Health of each upstream target (upstream and upstream model id): 0 healthy, 1 half-open (one probe allowed), 2 cooling (skipped).',
      labelNames: ['upstream', 'model'],
      registers,
      collect() {
        collectStates(this);
      },
    })),
    cooldowns: counter('upstream_cooldowns_total', 'Cooldowns this instance started on an upstream target, by cause (failures, rate_limit).', ['upstream', 'model', 'cause']),
    inFlight: reuse('in_flight_calls', () => new prom.Gauge({ name: `${prefix}in_flight_calls`, help: 'Model calls in progress on this instance (requests and open streams).', labelNames: [], registers })),
    cacheRequests: counter('cache_requests_total', 'Model calls by response cache result: hit (answered from the cache, no upstream call), miss (sent upstream), bypass (neither looked up nor stored).', ['endpoint', 'model', 'result', ...principal]),
    cacheBytes: () => reuse('cache_bytes', () => new prom.Gauge({
      name: `${prefix}cache_bytes`,
      help: 'Bytes of answers the response cache holds (read from its stores at scrape time; a shared store reports the same figure on every instance).',
      labelNames: [],
      registers,
      async collect() {
        await collectCacheBytes(this);
      },
    })),
    guardDecisions: counter('guard_decisions_total', 'Guard decisions by guard and decision: allow, replace, block, error or timeout (a stream counts once per guard and text, its strongest decision).', ['guard', 'decision']),
    admissionRefusals: counter('admission_refusals_total', 'Model calls refused at once: full (admission.maxInFlight), share_full (admission.maxPerPrincipal: places or waiting calls), queue_timeout (admission.queueMs) or shutting_down.', ['reason']),
  };
}
