/**
 * What the handlers share: options with defaults applied, the catalog, the
 * key verifier, the router and the file store. The embedded simulator (the
 * default upstream) is loaded on first use only, so gateways with their own
 * routes never load it or its tokenizer.
 *
 * @internal
 */
import { type CacheRuntime, createCacheRuntime } from './cache/cache-runtime.js';
import { createKeyVerifier, type VerifyKey } from './auth/verify-key.js';
import { type RequestBounds, resolveRequestBounds } from './bounds/request-bounds-options.js';
import { resolveStreamBounds, type StreamBounds } from './bounds/stream-bounds-options.js';
import { toFilesOptions } from './files/files-options.js';
import { gateFileStore, type GatedFileStore } from './files/gate-file-store.js';
import type { GatewayOptions } from './gateway-options.js';
import { createLimiter, type Limiter } from './limits/limiter.js';
import { type Catalog, DEFAULT_CATALOG } from './models/catalog.js';
import { createServedModels, type ServedModels } from './models/served-models.js';
import { admissionMetrics } from './observability/admission-metrics.js';
import { createModelLabel } from './observability/model-label.js';
import { createObservability, type ObserveRequest } from './observability/observability.js';
import { DEFAULT_MAX_BODY_BYTES } from './read-json-body.js';
import { DEFAULT_HEARTBEAT_MS } from './sse/relay-stream.js';
import { Admission } from './routing/admission.js';
import { createRouter, ownUpstreams, type Router, routeUpstreams } from './routing/routes.js';
import { gatewayRedactor, weakSecretWarnings } from './redact/gateway-redactor.js';
import type { Redactor } from './redact/redactor.js';
import { createResponsesRuntime, type ResponsesRuntime } from './responses/responses-runtime.js';
import { createViaHops, type ViaHops } from './upstreams/via-hops.js';
import { createGatewayHealth, type GatewayHealth } from './routing/gateway-health.js';
import { targetKey } from './routing/health.js';
import { HeaderForwarding } from './upstreams/forward-headers.js';
import { createSimulatedWarning } from './warn-simulated.js';
import { principalWarnings } from './auth/principal-warnings.js';
import { upstreamWarnings } from './upstreams/upstream-warnings.js';
import { warnAtCreation } from './warn-at-creation.js';
import { type ReportError, withDefaultVoice } from './observability/voice-options.js';
import { HEALTH_STORE_CONSEQUENCE, logStoreFailure } from './log-store-failure.js';

export interface GatewayRuntime {
  /** The app's options, with the default voice as `onError` and `limits.onStoreFailure` when the app set no listener. */
  readonly options: GatewayOptions;
  /** Reports an error response: the app's `onError`, the default voice, or nothing. */
  readonly reportError: ReportError | undefined;
  readonly catalog: Catalog;
  readonly verify: VerifyKey;
  readonly maxBodyBytes: number;
  readonly heartbeatMs: number;
  readonly maxChoices: number;
  /** What one request may hold (`requestBounds` over the defaults). */
  readonly bounds: RequestBounds;
  /** How much one stream may carry and how long it may last (`streamBounds` over the defaults). */
  readonly streamBounds: StreamBounds;
  /** The limits step, when `limits` is set. */
  readonly limiter: Limiter | undefined;
  router(): Router | Promise<Router>;
  /** The file endpoints' store under the `files` rules; undefined when they are off (404). */
  files(): GatedFileStore | undefined | Promise<GatedFileStore | undefined>;
  /** The models served: the listing, `GET /v1/models/{id}` and the messages 404. */
  readonly servedModels: ServedModels;
  /** Every configured upstream secret (and `options.secrets`), for error paths. */
  readonly redactor: Redactor;
  /** This gateway instance's `Via` entry and loop check. */
  readonly hops: ViaHops;
  /** Which caller headers go upstream: each format's defaults plus `forwardHeaders`. */
  readonly forwarding: HeaderForwarding;
  /** Told of every simulated answer: warns once when one is served in production. */
  readonly noteSimulated: () => void;
  /** Starts a request's observation; undefined when no observability option is set. */
  readonly observe: ObserveRequest | undefined;
  /** The Responses endpoints' store, reasoning seal and built-in tools policy. */
  readonly responses: ResponsesRuntime;
  /** Per-target health (cooldowns); undefined when `routing.health` is false. */
  readonly health: GatewayHealth | undefined;
  /** The model calls in progress, their limit (`admission`) and queue. */
  readonly admission: Admission;
  /** The response cache, when the `cache` option is set. */
  readonly cache: CacheRuntime | undefined;
  close(): Promise<void>;
}

interface SimulatorParts {
  router: Router;
  files: GatedFileStore;
}

/** Applies defaults and validates options once, at creation. */
export function createGatewayRuntime(given: GatewayOptions): GatewayRuntime {
  if (!given || typeof given !== 'object' || !given.auth) {
    throw new TypeError('createGateway: `auth` is required, e.g. createGateway({ auth: { keys: ["sk-..."] } })');
  }
  // Every part below reads these: a failure any of them reports reaches the default voice when the app set no listener.
  const { options, reportError, stop: stopVoice } = withDefaultVoice(given);
  const catalog = options.catalog ?? DEFAULT_CATALOG;
  const routes = options.routes;
  let simulator: Promise<SimulatorParts> | undefined;
  const loadSimulator = (): Promise<SimulatorParts> => {
    simulator ??= import('./simulator/index.js').then(({ createSimulator }) => {
      const sim = createSimulator({ catalog });
      const router = createRouter([
        { match: (model) => catalog.has(model), upstream: sim.upstreams.messages },
        { match: '*', upstream: sim.upstreams.chat },
      ]);
      // Its store keeps files per owner, and nothing real is lost: each principal may delete its own copies.
      return { router, files: gateFileStore({ store: sim.files, allowDelete: true }) };
    });
    return simulator;
  };
  const health = createGatewayHealth(options.routing);
  const tracker = health?.tracker;
  // Affinity and the strategies move off a target that cannot take a request now (cooling, or half-open with its probe out).
  const router = routes
    ? createRouter(routes, tracker ? { isAvailable: (target, scope) => tracker.cooling(targetKey(target.upstream.name, target.model, scope)) === undefined } : {})
    : undefined;
  const filesOptions = toFilesOptions(options.files);
  const files = filesOptions ? gateFileStore(filesOptions) : undefined;
  const servedModels = createServedModels({ catalog, ...(routes && router ? { routing: { routes, resolve: router.resolve } } : {}) });
  const routedIds = new Set(servedModels.listed.filter((model) => !model.entry).map((model) => model.id));
  const limiter = options.limits ? createLimiter(options.limits) : undefined;
  const redactor = gatewayRedactor(routes ?? [], options.secrets);
  const healthStore = options.routing?.health;
  const stopLoggingHealth = healthStore ? healthStore.onFailure?.((failure) => logStoreFailure(options.logger, failure, { redactor, consequence: HEALTH_STORE_CONSEQUENCE })) : undefined;
  warnAtCreation(options.logger, [...principalWarnings(options), ...weakSecretWarnings(routes ?? []), ...upstreamWarnings((routes ?? []).flatMap(routeUpstreams))]);
  const cache = createCacheRuntime(options, redactor);
  return {
    options,
    reportError,
    catalog,
    verify: createKeyVerifier(options.auth),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    maxChoices: options.maxChoices ?? 8,
    bounds: resolveRequestBounds(options.requestBounds),
    streamBounds: resolveStreamBounds(options.streamBounds),
    limiter,
    router: () => router ?? loadSimulator().then((parts) => parts.router),
    // No `files` option: the simulator's store without routes; with routes none, as the vendor account's files are served only when the operator says so.
    files: () => (options.files !== undefined || routes ? files : loadSimulator().then((parts) => parts.files)),
    servedModels,
    redactor,
    hops: createViaHops(),
    forwarding: new HeaderForwarding(options.forwardHeaders),
    noteSimulated: createSimulatedWarning(options.logger),
    responses: createResponsesRuntime(options, redactor),
    admission: new Admission(options.admission, admissionMetrics(options.prometheus)),
    observe: createObservability(options, {
      modelLabel: createModelLabel({ catalog, routedIds, ...(routes && router ? { routes: { list: routes, router } } : {}) }),
      health: health?.tracker,
      cacheStore: cache?.store,
    }),
    health,
    cache,
    async close() {
      stopVoice();
      limiter?.close();
      health?.close();
      stopLoggingHealth?.();
      const upstreams = new Set((routes ?? []).flatMap(routeUpstreams));
      await Promise.all([...upstreams].map((upstream) => upstream.close?.()));
    },
  };
}
