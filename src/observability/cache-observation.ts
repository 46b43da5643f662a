/**
 * The response cache in a request's signals: what its span, its log line
 * and the cache counters say of the cache's part, and the store's bytes on
 * the gauges.
 *
 * A hit made no upstream call, so it has no CLIENT span and adds nothing to
 * the GenAI client metrics or `modelgate_tokens_total` (they measure what
 * upstreams did and billed); the request's span carries the stored answer's
 * `gen_ai.usage.*` and `gen_ai.response.*` instead, as the CLIENT span of a
 * call would, and `modelgate.cache.result` says it was a hit.
 *
 * @internal
 */
import type { CacheResult } from '../cache/cache-types.js';
import type { TokenUsage } from '../usage.js';
import { addCacheStore, cacheBytesOf, type CacheBytesSource } from './cache-bytes-gauge.js';
import { addResponseAttributes, addUsageAttributes, type Attributes, type ResponseMeta } from './genai-attributes.js';
import type { ObservabilitySignals } from './observability-signals.js';

/** What the response cache did for one request, as the cache pipeline reports it. */
export interface CacheOutcome {
  result: CacheResult;
  /** On a hit: the stored answer's age in seconds (the response's `age` header). */
  ageSeconds?: number;
}

/** A hit's stored answer, standing in for the upstream call it saved. */
export interface CachedAnswerFigures {
  /** The stored answer's token figures (as the client sees them). */
  usage: TokenUsage;
  /** Its id, model and finish reasons, when read. */
  meta?: ResponseMeta | undefined;
}

/** The request span's cache attributes: `modelgate.cache.result`, on a hit `modelgate.cache.age_seconds` and the stored answer's GenAI figures. */
export function addCacheAttributes(out: Attributes, cache: CacheOutcome, answer: CachedAnswerFigures | undefined): Attributes {
  out['modelgate.cache.result'] = cache.result;
  if (cache.result !== 'hit') return out;
  if (cache.ageSeconds !== undefined) out['modelgate.cache.age_seconds'] = cache.ageSeconds;
  if (answer) addUsageAttributes(addResponseAttributes(out, answer.meta ?? {}), answer.usage);
  return out;
}

/** The log line's cache fields: `cache`, and on a hit `cacheAgeSeconds`. */
export function addCacheLogFields(line: Record<string, unknown>, cache: CacheOutcome): void {
  line.cache = cache.result;
  if (cache.result === 'hit' && cache.ageSeconds !== undefined) line.cacheAgeSeconds = cache.ageSeconds;
}

/** What labels one request's cache count. */
export interface CacheCountLabels {
  endpoint: string;
  /** The request's model label (model-label.ts). */
  model: string;
  /** The principal label, counted only when the Prometheus option asks for it. */
  principal: string;
}

/** Counts one request on `modelgate_cache_requests_total` and `modelgate.cache.requests`. */
export function countCacheResult(signals: Pick<ObservabilitySignals, 'otel' | 'prometheus'>, result: CacheResult, labels: CacheCountLabels): void {
  const { prometheus, otel } = signals;
  if (prometheus) {
    const { endpoint, model } = labels;
    prometheus.cacheRequests.inc(prometheus.principalLabel ? { endpoint, model, result, principal: labels.principal } : { endpoint, model, result });
  }
  otel?.cacheRequests.add(1, { 'modelgate.endpoint': labels.endpoint, 'gen_ai.request.model': labels.model, 'modelgate.cache.result': result });
}

/** OpenTelemetry gauges that already have their callback. */
const FED = new WeakSet<object>();

/**
 * Feeds the bytes `store` holds (`bytesHeld`, read at scrape time) into the
 * `modelgate_cache_bytes` and `modelgate.cache.bytes` gauges of the signals
 * that are on. A store without `bytesHeld` adds no series.
 */
export function observeCacheStore(signals: Pick<ObservabilitySignals, 'otel' | 'prometheus'>, store: CacheBytesSource): void {
  if (typeof store.bytesHeld !== 'function') return;
  const { prometheus, otel } = signals;
  if (prometheus) addCacheStore(prometheus.cacheBytes(), store);
  if (!otel) return;
  const gauge = otel.cacheBytes;
  addCacheStore(gauge, store);
  // One callback per gauge, reading every store that feeds it.
  if (FED.has(gauge)) return;
  FED.add(gauge);
  gauge.addCallback(async (result) => {
    const bytes = await cacheBytesOf(gauge);
    if (bytes !== undefined) result.observe(bytes);
  });
}
