/**
 * What the handlers share: options with defaults applied, the catalog, the
 * key verifier, the router and the file store. The embedded simulator (the
 * default upstream) is loaded on first use only, so gateways with their own
 * routes never load it or its tokenizer.
 *
 * @internal
 */
import { createKeyVerifier, type VerifyKey } from './auth/verify-key.js';
import type { FileStore } from './files/file-store.js';
import { upstreamFileStore } from './files/upstream-file-store.js';
import type { GatewayOptions } from './gateway-options.js';
import type { ServedModel } from './handlers/models.js';
import { createLimiter, type Limiter } from './limits/limiter.js';
import { type Catalog, DEFAULT_CATALOG } from './models/catalog.js';
import { admissionMetrics } from './observability/admission-metrics.js';
import { createModelLabel } from './observability/model-label.js';
import { createObservability, type ObserveRequest } from './observability/observability.js';
import { DEFAULT_MAX_BODY_BYTES } from './read-json-body.js';
import { DEFAULT_HEARTBEAT_MS } from './sse/relay-stream.js';
import { Admission } from './routing/admission.js';
import { createRouter, type Route, type Router } from './routing/routes.js';
import { gatewayRedactor } from './redact/gateway-redactor.js';
import type { Redactor } from './redact/redactor.js';
import { createResponsesRuntime, type ResponsesRuntime } from './responses/responses-runtime.js';
import { createViaHops, type ViaHops } from './upstreams/via-hops.js';
import { createSimulatedWarning } from './warn-simulated.js';

export interface GatewayRuntime {
  readonly options: GatewayOptions;
  readonly catalog: Catalog;
  readonly verify: VerifyKey;
  readonly maxBodyBytes: number;
  readonly heartbeatMs: number;
  readonly maxChoices: number;
  /** The limits step, when `limits` is set. */
  readonly limiter: Limiter | undefined;
  router(): Router | Promise<Router>;
  files(): FileStore | undefined | Promise<FileStore | undefined>;
  /** Models named by exact-id routes, for the listing. */
  readonly routedModels: readonly ServedModel[];
  /** Every configured upstream secret (and `options.secrets`), for error paths. */
  readonly redactor: Redactor;
  /** This gateway instance's `Via` entry and loop check. */
  readonly hops: ViaHops;
  /** Told of every simulated answer: warns once when one is served in production. */
  readonly noteSimulated: () => void;
  /** Starts a request's observation; undefined when no observability option is set. */
  readonly observe: ObserveRequest | undefined;
  /** The Responses endpoints' store, reasoning seal and built-in tools policy. */
  readonly responses: ResponsesRuntime;
  /** The model calls in progress, their limit (`admission`) and queue. */
  readonly admission: Admission;
  close(): Promise<void>;
}

interface SimulatorParts {
  router: Router;
  files: FileStore;
}

function routedModelsOf(routes: readonly Route[], catalog: Catalog): ServedModel[] {
  const models: ServedModel[] = [];
  for (const route of routes) {
    if (typeof route.match !== 'string' || /[*?]/.test(route.match) || catalog.has(route.match)) continue;
    models.push({ id: route.match, ownedBy: route.upstream.name, messages: route.serveMessages === true });
  }
  return models;
}

/**
 * The file store when `routes` are set and `files` is not: the vendor's
 * files behind the first messages-format upstream of the routes (the file
 * endpoints are available). None when no route has one.
 * Routes with `keyPassthrough` are skipped: their upstream may hold no key
 * of its own, and the file endpoints never forward a caller's key; so are
 * upstreams that hold no files (`holdsFiles: false`, e.g. Bedrock).
 */
function routesFileStore(routes: readonly Route[]): FileStore | undefined {
  const upstream = routes.find((route) => route.upstream.format === 'messages' && route.upstream.holdsFiles !== false && route.keyPassthrough !== true)?.upstream;
  return upstream ? upstreamFileStore(upstream) : undefined;
}

/** Applies defaults and validates options once, at creation. */
export function createGatewayRuntime(options: GatewayOptions): GatewayRuntime {
  if (!options || typeof options !== 'object' || !options.auth) {
    throw new TypeError('createGateway: `auth` is required, e.g. createGateway({ auth: { keys: ["sk-..."] } })');
  }
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
      return { router, files: sim.files };
    });
    return simulator;
  };
  const router = routes ? createRouter(routes) : undefined;
  const routedFiles = routes && options.files === undefined ? routesFileStore(routes) : undefined;
  const routedModels = routes ? routedModelsOf(routes, catalog) : [];
  const routedIds = new Set(routedModels.map((model) => model.id));
  const limiter = options.limits ? createLimiter(options.limits) : undefined;
  return {
    options,
    catalog,
    verify: createKeyVerifier(options.auth),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    maxChoices: options.maxChoices ?? 8,
    limiter,
    router: () => router ?? loadSimulator().then((parts) => parts.router),
    files: () => {
      if (options.files === false) return undefined;
      if (options.files) return options.files;
      return routes ? routedFiles : loadSimulator().then((parts) => parts.files);
    },
    routedModels,
    redactor: gatewayRedactor(routes ?? [], options.secrets),
    hops: createViaHops(),
    noteSimulated: createSimulatedWarning(options.logger),
    responses: createResponsesRuntime(options),
    admission: new Admission(options.admission, admissionMetrics(options.prometheus)),
    observe: createObservability(options, createModelLabel({ catalog, routedIds, ...(routes && router ? { routes: { list: routes, router } } : {}) })),
    async close() {
      limiter?.close();
      const upstreams = new Set((routes ?? []).flatMap((route) => [
        route.upstream,
        ...(route.fallbacks ?? []).map((fallback) => ('send' in fallback ? fallback : fallback.upstream)),
      ]));
      await Promise.all([...upstreams].map((upstream) => upstream.close?.()));
    },
  };
}
