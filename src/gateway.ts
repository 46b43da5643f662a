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
import { sanitizeResponseHeaders, toHeaderValue } from './header-value.js';
import { assertModelAllowed, authenticateKeyNow } from './auth/authenticate.js';
import { findRequestBoundViolation } from './bounds/check-request-bounds.js';
import { requestBoundsError } from './bounds/request-bounds-error.js';
import { GatewayError, toGatewayError } from './errors.js';
import { createGatewayContext, type GatewayContext } from './gateway-context.js';
import type { GatewayOptions } from './gateway-options.js';
import { createGatewayRuntime, type GatewayRuntime } from './gateway-runtime.js';
import { gatewayOptionsSchema } from './options/gateway-options-schema.js';
import { assertOptions } from './options/parse-options.js';
import { handleChatCompletions } from './handlers/chat-completions.js';
import { handleCountTokens } from './handlers/count-tokens.js';
import { handleFiles } from './handlers/files-endpoint.js';
import { handleMessages } from './handlers/messages.js';
import { handleResponses } from './handlers/responses.js';
import { handleResponsesInputTokens } from './handlers/responses-input-tokens.js';
import { requestPivot } from './handlers/responses-pivot.js';
import { deleteResponse, listInputItems, retrieveResponse } from './handlers/responses-resources.js';
import { isOpenAIModelCall } from './match-endpoint.js';
import { responsesRequestSchema } from './schemas/responses-request.js';
import { listModels, retrieveModel, servedModels } from './handlers/models.js';
import { enforceRequestRules } from './handlers/enforce-request-rules.js';
import { isThenable, type MaybePromise } from './maybe-promise.js';
import { applyLimitHeaders } from './limits/limit-headers.js';
import type { LimitAdmission, LimitRequest } from './limits/limit-request.js';
import { applyTemperatureRuleFirst } from './handlers/temperature-first.js';
import type { Catalog } from './models/catalog.js';
import { hasUnreadBody, loadRequestBody } from './load-request-body.js';
import { readJsonBody } from './read-json-body.js';
import { requestRedactor } from './redact/gateway-redactor.js';
import { redactError, redactRequest } from './redact/redact-error.js';
import { renderError } from './render-error.js';
import { chatCompletionRequestSchema } from './schemas/chat-request.js';
import { countTokensRequestSchema, messagesRequestSchema } from './schemas/messages-request.js';
import { parseRequest } from './schemas/parse-request.js';
import type { GatewayRequest, GatewayResponse } from './types.js';
import { SIMULATED_HEADER } from './upstreams/simulated-headers.js';
import { asClientLeft, assertRequestClientPresent, clientLeftError } from './signals/client-left.js';
import { abortSourceOf } from './signals/abort-source.js';
import { shutDown, type ShutdownOptions } from './lifecycle/shutdown.js';
import { shutdownOptionsSchema } from './options/admission-schema.js';
import { admitCall, needsPlace, settleWhenDone } from './routing/admit-call.js';

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
   * the body is too large or late.
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

const BODY_SCHEMAS = {
  'chat.completions': chatCompletionRequestSchema,
  messages: messagesRequestSchema,
  'messages.count_tokens': countTokensRequestSchema,
  'responses.create': responsesRequestSchema,
  'responses.input_tokens': responsesRequestSchema,
} as const;

function isModelEndpoint(name: string): name is keyof typeof BODY_SCHEMAS {
  return name in BODY_SCHEMAS;
}

function requireEndpoint(ctx: GatewayContext) {
  // A looping request is refused before any step (authentication, limits, upstream calls).
  if (ctx.refusal) throw ctx.refusal;
  if (!ctx.endpoint) throw ctx.routingError ?? new GatewayError('NOT_FOUND', 'Not found.');
  return ctx.endpoint;
}

/** The endpoint's handler. Not async itself: one promise fewer per model call (the handlers are). */
function dispatch(ctx: GatewayContext, runtime: GatewayRuntime): Promise<GatewayResponse> {
  switch (ctx.endpoint?.name) {
    case 'chat.completions':
      return handleChatCompletions(ctx, runtime);
    case 'messages':
      return handleMessages(ctx, runtime);
    case 'messages.count_tokens':
      return handleCountTokens(ctx, runtime);
    case 'responses.create':
      return handleResponses(ctx, runtime);
    default:
      return dispatchOther(ctx, runtime);
  }
}

/** The other endpoints (and a request that matched none: `requireEndpoint` rejects it). */
async function dispatchOther(ctx: GatewayContext, runtime: GatewayRuntime): Promise<GatewayResponse> {
  const endpoint = requireEndpoint(ctx);
  switch (endpoint.name) {
    case 'chat.completions':
    case 'messages':
    case 'messages.count_tokens':
    case 'responses.create':
      return dispatch(ctx, runtime); // not reached (dispatch takes these): keeps the switch exhaustive
    case 'models.list':
      return listModels(servedModels(runtime.catalog, runtime.routedModels), endpoint.query, {
        ...(ctx.principal ? { principal: ctx.principal } : {}),
        vendorClient: ctx.format === 'messages',
      });
    case 'models.retrieve':
      return retrieveModel(servedModels(runtime.catalog, runtime.routedModels), endpoint.id ?? '', ctx.principal);
    case 'files.list':
    case 'files.retrieve':
    case 'files.content':
    case 'files.delete':
    case 'files.upload': {
      const files = await runtime.files();
      // The file store may be an upstream: no call for a client that left while it loaded.
      assertRequestClientPresent(ctx.request);
      return handleFiles(endpoint, files, ctx.via);
    }
    case 'responses.input_tokens':
      return handleResponsesInputTokens(ctx, runtime);
    case 'responses.retrieve':
      return retrieveResponse(ctx, runtime, endpoint);
    case 'responses.delete':
      return deleteResponse(ctx, runtime, endpoint);
    case 'responses.input_items':
      return listInputItems(ctx, runtime, endpoint);
  }
}

/**
 * What the limits step reads of a model call (the request itself holds the client's signal, read only for a stream).
 * A Responses call's prompt includes its stored items: token and budget rules resolve them before the reservation.
 */
function limitRequestOf(ctx: GatewayContext, runtime: GatewayRuntime): LimitRequest {
  const prompt = ctx.endpoint?.name === 'responses.create' ? () => requestPivot(ctx, runtime).then((pivot) => pivot.request) : undefined;
  return { endpoint: ctx.endpoint?.name, principal: ctx.principal, body: ctx.body, route: ctx.route, format: ctx.format, client: ctx.request, prompt };
}

/** The limits' side of an admitted call: its headers for the response, and the hooks the call reports usage and progress to. */
function applyAdmission(ctx: GatewayContext, admission: LimitAdmission): void {
  ctx.limitHeaders = admission.headers;
  ctx.limitUsage = admission.recordUsage;
  ctx.limitTouch = admission.touch;
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

  // The steps without a promise while they can answer at once: `handle` runs these, and the
  // public steps (always promises, for composed pipelines) wrap them.
  const authenticateNow = (ctx: GatewayContext): MaybePromise<void> => {
    const endpoint = requireEndpoint(ctx);
    if (ctx.principal) return;
    const source = isOpenAIModelCall(endpoint.name) || endpoint.name.startsWith('responses.') ? 'bearer' : 'bearer-or-api-key';
    const found = authenticateKeyNow(ctx.request, source, runtime.verify);
    if (isThenable(found)) {
      return found.then(({ principal, key }) => {
        ctx.principal = principal;
        ctx.credential = key;
        // A custom `verify` may be slow: nothing more runs for a client that left meanwhile.
        assertRequestClientPresent(ctx.request);
      });
    }
    ctx.principal = found.principal;
    ctx.credential = found.key;
  };

  const enforceRulesNow = (ctx: GatewayContext): MaybePromise<void> => {
    const endpoint = requireEndpoint(ctx);
    if (!isModelEndpoint(endpoint.name)) return;
    // The model permission needs the caller: rules never run for an unknown one.
    if (!ctx.principal) {
      const pending = authenticateNow(ctx);
      if (pending) return pending.then(() => enforceRulesNow(ctx));
    }
    if (!ctx.body) {
      const validating = validateNow(ctx);
      if (validating) return validating.then(() => enforceRulesNow(ctx));
    }
    assertModelAllowed(ctx.principal!, ctx.body!.model as string);
    return enforceRequestRules(ctx, runtime);
  };

  /** The body an adapter left unread, read once the caller is authenticated (only for the endpoints that take one). */
  const readBodyNow = (ctx: GatewayContext): MaybePromise<void> => {
    const endpoint = requireEndpoint(ctx);
    if (!isModelEndpoint(endpoint.name) || !hasUnreadBody(ctx.request)) return;
    if (!ctx.principal) {
      const authenticating = authenticateNow(ctx);
      if (authenticating) return authenticating.then(() => readBodyNow(ctx));
    }
    return loadRequestBody(ctx.request);
  };

  /** Step 2 with the body read first when an adapter left it unread. */
  const validateNow = (ctx: GatewayContext): MaybePromise<void> => {
    const reading = readBodyNow(ctx);
    if (reading) return reading.then(() => gateway.validate(ctx));
    gateway.validate(ctx);
  };

  const admit = (ctx: GatewayContext): MaybePromise<void> => admitCall(ctx, runtime.admission);

  /** A model call whose steps have run: the model permission (also when the rules ran before a later step set the principal), its place, the limits, the call. */
  const dispatchChecked = (ctx: GatewayContext): Promise<GatewayResponse> => {
    assertModelAllowed(ctx.principal!, ctx.body!.model as string);
    const admitting = admit(ctx);
    return admitting ? admitting.then(() => dispatchAdmitted(ctx)) : dispatchAdmitted(ctx);
  };

  /** The call in its place: the handler's end settles the place (its streams hold it until they end). */
  const dispatchAdmitted = (ctx: GatewayContext): Promise<GatewayResponse> => {
    let call: Promise<GatewayResponse>;
    try {
      // The rules (or the wait for a place) may have taken time: no reservation for a client that left.
      const client = abortSourceOf(ctx.request);
      if (client.aborted) throw clientLeftError();
      call = runtime.limiter
        ? runtime.limiter.run(limitRequestOf(ctx, runtime), (admission) => {
            // The limits store may be remote (a round trip to Redis): checked again once it admitted the call.
            if (client.aborted) return Promise.reject(clientLeftError());
            if (admission) applyAdmission(ctx, admission);
            return dispatch(ctx, runtime);
          })
        : dispatch(ctx, runtime);
    } catch (error) {
      ctx.slot?.settle();
      return Promise.reject(error);
    }
    return settleWhenDone(ctx, call);
  };

  /**
   * Step 4's work: whatever steps a composed pipeline skipped run here, so nothing
   * unauthenticated, unvalidated or unchecked reaches an upstream.
   */
  const dispatchSteps = (ctx: GatewayContext): Promise<GatewayResponse> => {
    try {
      if (!ctx.principal) {
        const authenticating = authenticateNow(ctx);
        if (authenticating) return authenticating.then(() => dispatchSteps(ctx));
      }
      if (isModelEndpoint(requireEndpoint(ctx).name)) {
        if (!ctx.body) {
          const validating = validateNow(ctx);
          if (validating) return validating.then(() => dispatchSteps(ctx));
        }
        if (!ctx.route) {
          const enforcing = enforceRulesNow(ctx);
          if (enforcing) return enforcing.then(() => dispatchChecked(ctx));
        }
        return dispatchChecked(ctx);
      }
      return dispatch(ctx, runtime);
    } catch (error) {
      return Promise.reject(error);
    }
  };

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
      return authenticateNow(ctx);
    },

    validate(ctx) {
      const endpoint = requireEndpoint(ctx);
      // Once validated, the body stays as the later steps left it (a dropped parameter stays dropped).
      if (!isModelEndpoint(endpoint.name) || ctx.body) return;
      const raw = readJsonBody(ctx.request, runtime.maxBodyBytes);
      // Before any schema work: a body past its bounds is refused at the cost of one walk.
      const outOfBounds = findRequestBoundViolation(endpoint.name, raw, runtime.bounds);
      if (outOfBounds) throw requestBoundsError(outOfBounds);
      // The temperature rule answers before the schema's range and type checks.
      const checked = applyTemperatureRuleFirst(ctx, raw, runtime.catalog, runtime.options.dropUnsupportedParams === true);
      ctx.body = parseRequest(BODY_SCHEMAS[endpoint.name], checked) as Record<string, unknown>;
    },

    async readBody(ctx) {
      return readBodyNow(ctx);
    },

    async enforceRules(ctx) {
      return enforceRulesNow(ctx);
    },

    dispatch(ctx) {
      if (!needsPlace(ctx)) return dispatchSteps(ctx);
      // The caller first: one without a valid key never holds a place. Then, over capacity, an
      // authenticated call is refused before the steps it still needs (its body read and parsed).
      let admitting: MaybePromise<void>;
      try {
        if (!ctx.principal) {
          const authenticating = authenticateNow(ctx);
          if (authenticating) return authenticating.then(() => gateway.dispatch(ctx));
        }
        admitting = admit(ctx);
      } catch (error) {
        return Promise.reject(error);
      }
      // A step that fails gives the place back (the handler's end does otherwise).
      const run = (): Promise<GatewayResponse> =>
        dispatchSteps(ctx).catch((error: unknown) => {
          ctx.slot?.settle();
          throw error;
        });
      return admitting ? admitting.then(run) : run();
    },

    renderError(ctx, error) {
      // Every error response passes here: upstream text it quotes loses the secrets first.
      const gatewayError = redactError(asClientLeft(toGatewayError(error), abortSourceOf(ctx.request)), requestRedactor(runtime.redactor, ctx));
      ctx.observer?.failed(gatewayError);
      try {
        options.onError?.({ error: gatewayError, request: redactRequest(ctx.request), requestId: ctx.requestId });
      } catch {
        // A failing observer must not change the response.
      }
      return renderError(gatewayError, ctx.format);
    },

    finish(ctx, response) {
      response.headers['request-id'] = ctx.requestId;
      response.headers['x-request-id'] = ctx.requestId;
      if (ctx.dropped.length > 0) response.headers['x-modelgate-dropped-params'] = toHeaderValue(ctx.dropped.join(', '));
      if (ctx.adaptations.length > 0) response.headers['x-modelgate-adapted-thinking'] = toHeaderValue(ctx.adaptations.join(' | '));
      if (ctx.warnings.length > 0) response.headers['x-modelgate-warnings'] = toHeaderValue(ctx.warnings.join(' | '));
      if (ctx.limitHeaders) applyLimitHeaders(response.headers, ctx.limitHeaders);
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
        const authenticating = authenticateNow(ctx);
        if (authenticating) await authenticating;
        const admitting = admit(ctx);
        if (admitting) await admitting;
        const validating = validateNow(ctx);
        if (validating) await validating;
        const enforcing = enforceRulesNow(ctx);
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
