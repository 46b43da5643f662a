/**
 * `createGateway`: the framework-free gateway.
 *
 * A request goes through these steps, each also exposed on its own so that
 * adapters can offer them as separate middlewares:
 * route → authenticate (headers only) → admit (model calls) → read and
 * validate the body → enforce rules → dispatch.
 * `handle` runs them all and never rejects: failures come back as error
 * responses in the caller's interface format.
 */
import { steersTarget } from './upstreams/caller-steering.js';
import { sanitizeResponseHeaders, toHeaderValue } from './header-value.js';
import { toGatewayError } from './errors.js';
import { createGatewayContext, type GatewayContext } from './gateway-context.js';
import type { GatewayOptions } from './gateway-options.js';
import { createGatewayRuntime } from './gateway-runtime.js';
import { createGatewaySteps } from './gateway-steps.js';
import { gatewayOptionsSchema } from './options/gateway-options-schema.js';
import { assertOptions } from './options/parse-options.js';
import { applyLimitHeaders } from './limits/limit-headers.js';
import type { Catalog } from './models/catalog.js';
import type { ResolvedRoute } from './routing/routes.js';
import { requestRedactor } from './redact/gateway-redactor.js';
import { errorForClient, redactCauses, redactRequest } from './redact/redact-error.js';
import { renderError } from './render-error.js';
import type { GatewayRequest, GatewayResponse } from './types.js';
import { SIMULATED_HEADER } from './upstreams/simulated-headers.js';
import { asClientLeft } from './signals/client-left.js';
import { abortSourceOf } from './signals/abort-source.js';
import { shutDown, type ShutdownOptions } from './lifecycle/shutdown.js';
import { shutdownOptionsSchema } from './options/admission-schema.js';

/** The upstream of a route with only one (a relayed 5xx came from it), for failure reports. */
function onlyUpstreamOf(route: ResolvedRoute | undefined): string | undefined {
  const first = route?.targets[0]?.upstream.name;
  return first !== undefined && route!.targets.every((target) => target.upstream.name === first) ? first : undefined;
}

/** True when the caller steered one of its route's upstreams (the simulator's fault controls), as health already treats it. */
function callerSteered(ctx: GatewayContext): boolean {
  return ctx.route?.targets.some((target) => steersTarget(ctx.request.headers, target.upstream.callerHeaderPrefixes)) === true;
}

export interface Gateway {
  /** Runs every step; never rejects. */
  handle(request: GatewayRequest): Promise<GatewayResponse>;
  /** Step 0: request id, endpoint, caller's interface. Never throws. */
  begin(request: GatewayRequest): GatewayContext;
  /** Step 1: 404/405 for unknown paths, then the caller's key → `ctx.principal` (401 when missing or unknown). */
  authenticate(ctx: GatewayContext): Promise<void>;
  /**
   * Step 2: JSON body and schema → `ctx.body` (400/413/415). Needs the body's
   * bytes: when an adapter left them unread (`request.readBody`), the
   * adapters' validate steps run {@link Gateway.readBody} first.
   */
  validate(ctx: GatewayContext): void;
  /**
   * Step 1½: reads the body an adapter left unread (`request.readBody`), for
   * the endpoints that take one; authenticates first when no step did, so a
   * caller without a valid key never has its body buffered. 413 / 408 when
   * the body is too large or late. It takes no admission place: `handle`
   * takes the place before it reads the body; a composed pipeline that runs
   * this step takes it later, at `dispatch`.
   */
  readBody(ctx: GatewayContext): Promise<void>;
  /** Step 3: model permission (403), route (404) and the model matrix's rules (400). */
  enforceRules(ctx: GatewayContext): Promise<void>;
  /**
   * Step 4: serve the endpoint (upstream call, listing, files). Runs any
   * earlier step the pipeline skipped, so none can be bypassed.
   */
  dispatch(ctx: GatewayContext): Promise<GatewayResponse>;
  /** Renders any thrown value as the error response of `ctx`'s interface. */
  renderError(ctx: GatewayContext, error: unknown): GatewayResponse;
  /** Adds the gateway's response headers (`request-id`, ...). Applied by `handle` and the adapters. */
  finish(ctx: GatewayContext, response: GatewayResponse): GatewayResponse;
  readonly catalog: Catalog;
  readonly options: GatewayOptions;
  /** Closes upstream connection pools (once: later calls return the same promise). */
  close(): Promise<void>;
  /**
   * Graceful shutdown: new model calls and token counts are refused at once (503 / 529
   * `overloaded`, "shutting down", `retry-after`); calls in progress run
   * for up to `graceMs` (default 10000); streams still open then end with
   * an error event in their format and their upstream request is aborted;
   * every call's usage is reported (`onUsage`, limits, telemetry); then the
   * upstream pools close, as `close()` does. Calling it again returns the
   * same promise.
   */
  shutdown(options?: ShutdownOptions): Promise<void>;
  /** Model calls in progress (open streams included) and waiting for a place. */
  load(): { inFlight: number; queued: number };
}

/**
 * Creates a gateway.
 *
 * @example
 * const gateway = createGateway({ auth: { keys: [process.env.MODELGATE_KEY!] } });
 * const response = await gateway.handle({ method: 'GET', url: '/v1/models', headers, signal });
 * @throws GatewayConfigError listing every problem in `options` (an unset key, an unknown option, a negative time-out, ...).
 */
export function createGateway(options: GatewayOptions): Gateway {
  assertOptions(gatewayOptionsSchema, options, 'createGateway');
  const runtime = createGatewayRuntime(options);

  const steps = createGatewaySteps(runtime);

  let shuttingDown: Promise<void> | undefined;
  let closing: Promise<void> | undefined;

  const gateway: Gateway = {
    catalog: runtime.catalog,
    options,
    begin(request) {
      const ctx = createGatewayContext(request, runtime.hops, runtime.forwarding);
      if (runtime.observe) ctx.observer = runtime.observe(ctx);
      if (runtime.health) ctx.health = runtime.health.tracker;
      return ctx;
    },

    async authenticate(ctx) {
      return steps.authenticate(ctx);
    },

    validate: steps.validate,

    async readBody(ctx) {
      return steps.readBody(ctx);
    },

    async enforceRules(ctx) {
      return steps.enforceRules(ctx);
    },

    dispatch: steps.dispatch,

    renderError(ctx, error) {
      // Every error response passes here. Upstream text in the error was redacted where it was read;
      // its causes (foreign errors) are redacted now; the gateway's own words are never searched.
      const gatewayError = redactCauses(asClientLeft(toGatewayError(error), abortSourceOf(ctx.request)), requestRedactor(runtime.redactor, ctx));
      ctx.observer?.failed(gatewayError);
      try {
        runtime.reportError?.({ error: gatewayError, request: redactRequest(ctx.request), requestId: ctx.requestId }, onlyUpstreamOf(ctx.route), callerSteered(ctx));
      } catch {
        // A failing observer must not change the response.
      }
      return renderError(errorForClient(gatewayError, runtime.redactor), ctx.format);
    },

    finish(ctx, response) {
      response.headers['request-id'] = ctx.requestId;
      response.headers['x-request-id'] = ctx.requestId;
      if (ctx.dropped.length > 0) response.headers['x-modelgate-dropped-params'] = toHeaderValue(ctx.dropped.join(', '));
      if (ctx.adaptations.length > 0) response.headers['x-modelgate-adapted-thinking'] = toHeaderValue(ctx.adaptations.join(' | '));
      if (ctx.warnings.length > 0) response.headers['x-modelgate-warnings'] = toHeaderValue(ctx.warnings.join(' | '));
      if (ctx.limitHeaders) applyLimitHeaders(response.headers, ctx.limitHeaders);
      if (ctx.cache) {
        response.headers['x-modelgate-cache'] = ctx.cache.result;
        if (ctx.cache.ageSeconds !== undefined) response.headers.age = String(ctx.cache.ageSeconds);
      }
      // The last word on every header, whoever built it (handlers, upstreams, stores).
      sanitizeResponseHeaders(response.headers);
      if (response.headers[SIMULATED_HEADER] !== undefined) runtime.noteSimulated();
      return ctx.observer ? ctx.observer.respond(ctx, response) : response;
    },

    async handle(request) {
      const ctx = gateway.begin(request);
      try {
        // The key first, from the headers: a caller without a valid key holds no place and has
        // no body read. Over capacity, an authenticated call is refused before its body is read.
        const authenticating = steps.authenticate(ctx);
        if (authenticating) await authenticating;
        const admitting = steps.admit(ctx);
        if (admitting) await admitting;
        const validating = steps.readAndValidate(ctx);
        if (validating) await validating;
        const enforcing = steps.enforceRules(ctx);
        if (enforcing) await enforcing;
        return gateway.finish(ctx, await gateway.dispatch(ctx));
      } catch (error) {
        // Refused before its handler ran (or failed in it): the place is given back.
        ctx.slot?.settle();
        return gateway.finish(ctx, gateway.renderError(ctx, error));
      }
    },

    // Once: a shutdown closes too, and an app (or Fastify's close hook) may still call close() after it.
    close: () => (closing ??= runtime.close()),

    shutdown(shutdownOptions = {}) {
      assertOptions(shutdownOptionsSchema, shutdownOptions, 'gateway.shutdown');
      shuttingDown ??= shutDown(runtime.admission, shutdownOptions, () => gateway.close());
      return shuttingDown;
    },

    load: () => ({ inFlight: runtime.admission.inFlight, queued: runtime.admission.queued }),
  };
  return gateway;
}
