/**
 * The bytes the response cache holds, as the `modelgate_cache_bytes` gauge
 * and the `modelgate.cache.bytes` OpenTelemetry gauge read them at scrape
 * time: the sum over the distinct stores of the gateways that share the
 * gauge (one registry, several gateways; one store passed to two gateways
 * counts once).
 *
 * A store is asked at every scrape; a scrape never waits on it for long nor
 * fails because of it: a store that throws or does not answer within
 * {@link CACHE_BYTES_READ_MS} counts with the last figure it gave (0 before
 * its first), so a Redis outage neither stalls the scrape nor shows as an
 * emptied cache.
 *
 * @internal
 */
import type { PrometheusLabels } from './prometheus-shapes.js';

/** What the gauges read of a response cache store (a `ResponseCacheStore` is one). */
export interface CacheBytesSource {
  bytesHeld?(): number | Promise<number>;
}

/** Longest wait for one store's figure at a scrape, in ms. */
export const CACHE_BYTES_READ_MS = 1000;

/** The part of a prom-client `Gauge` the bytes gauge's `collect` uses. */
export interface SettableGaugeLike {
  set(labels: PrometheusLabels, value: number): void;
}

/** The stores feeding each gauge (a prom-client gauge, or a gateway's OpenTelemetry signals). */
const SOURCES = new WeakMap<object, Set<CacheBytesSource>>();
/** The last figure each store gave, for a scrape it does not answer in time. */
const LAST_BYTES = new WeakMap<CacheBytesSource, number>();

/** `store` feeds the gauge `gauge` from now on (stores without `bytesHeld` are left out). */
export function addCacheStore(gauge: object, store: CacheBytesSource): void {
  if (typeof store.bytesHeld !== 'function') return;
  const stores = SOURCES.get(gauge) ?? new Set();
  stores.add(store);
  SOURCES.set(gauge, stores);
}

/** One store's figure, bounded in time; never rejects. */
async function readBytes(store: CacheBytesSource): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), CACHE_BYTES_READ_MS).unref();
  });
  try {
    const bytes = await Promise.race([Promise.resolve().then(() => store.bytesHeld?.()), late]);
    if (typeof bytes === 'number' && Number.isFinite(bytes) && bytes >= 0) {
      LAST_BYTES.set(store, bytes);
      return bytes;
    }
  } catch {
    // A store that cannot answer (Redis down) keeps its last figure below.
  } finally {
    clearTimeout(timer);
  }
  return LAST_BYTES.get(store) ?? 0;
}

/** The bytes held by the stores feeding `gauge`; `undefined` when none does. */
export async function cacheBytesOf(gauge: object): Promise<number | undefined> {
  const stores = SOURCES.get(gauge);
  if (!stores || stores.size === 0) return undefined;
  const figures = await Promise.all([...stores].map(readBytes));
  return figures.reduce((total, bytes) => total + bytes, 0);
}

/** prom-client calls this on the bytes gauge at every scrape. */
export async function collectCacheBytes(gauge: SettableGaugeLike): Promise<void> {
  const bytes = await cacheBytesOf(gauge);
  if (bytes !== undefined) gauge.set({}, bytes);
}
