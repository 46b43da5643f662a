/**
 * The gateway's response cache as the handlers use it: the store behind its
 * guard (every command bounded, failures are misses), the resolved settings,
 * the in-process flights, which routes and models it covers, and what of a
 * route goes into a key.
 *
 * @internal
 */
import type { GatewayOptions } from '../gateway-options.js';
import { logStoreFailure } from '../log-store-failure.js';
import type { Redactor } from '../redact/redactor.js';
import type { ResolvedRoute } from '../routing/routes.js';
import type { ResponseCacheStore } from './cache-types.js';
import { type CacheSettings, resolveCacheSettings } from './cache-options.js';
import { guardResponseCache, RESPONSE_CACHE_CONSEQUENCE } from './guarded-response-cache.js';
import { SingleFlight } from './single-flight.js';

export interface CacheRuntime {
  readonly settings: CacheSettings;
  /** The store behind its guard. */
  readonly store: ResponseCacheStore;
  readonly flights: SingleFlight;
  /** Whether `route`'s requests may use the cache (not with `cache: false`; `cache.models` is the policy's). */
  enabledFor(route: ResolvedRoute): boolean;
  /** What of `route` goes into a key: every target's upstream and model, in route order, and the gateway options that shape the call. */
  keyTarget(route: ResolvedRoute): unknown;
}

/** The gateway options that change what an upstream is sent (and so its answer). */
function callShaping(options: GatewayOptions): Record<string, unknown> {
  return {
    defaultMaxTokens: options.defaultMaxTokens ?? null,
    reasoningBudgets: options.reasoningBudgets ?? null,
    dropUnsupportedParams: options.dropUnsupportedParams === true,
    adaptThinking: options.adaptThinking === true,
  };
}

/** The cache of a gateway with a `cache` option; undefined without one. */
export function createCacheRuntime(options: GatewayOptions, redactor: Redactor): CacheRuntime | undefined {
  if (!options.cache) return undefined;
  const settings = resolveCacheSettings(options.cache);
  const store = guardResponseCache(settings.store, {
    timeoutMs: settings.storeTimeoutMs,
    retryMs: settings.storeRetryMs,
    onFailure: (failure) => logStoreFailure(options.logger, failure, { redactor, consequence: RESPONSE_CACHE_CONSEQUENCE }),
  });
  const shaping = callShaping(options);
  return {
    settings,
    store,
    flights: new SingleFlight(),
    enabledFor: (route) => route.route.cache !== false,
    keyTarget(route) {
      // Renames depend on the requested model: the targets are read per request.
      return { targets: route.targets.map((each) => [each.upstream.name, each.upstream.format, each.model]), ...shaping };
    },
  };
}
