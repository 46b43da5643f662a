/**
 * The gateway's steps and their order: authenticate (headers only) → admit
 * (model calls) → read and validate the body → enforce rules → dispatch.
 * Each step runs the earlier ones a composed pipeline skipped, so none can be
 * bypassed. The steps stay synchronous while they can answer at once:
 * `handle` runs them as they are, and the public steps (always promises, for
 * composed pipelines) wrap them.
 *
 * @internal
 */
import { assertModelAllowed, authenticateKeyNow } from './auth/authenticate.js';
import { findRequestBoundViolation } from './bounds/check-request-bounds.js';
import { requestBoundsError } from './bounds/request-bounds-error.js';
import { dispatchEndpoint, MODEL_BODY_SCHEMAS, requireEndpoint } from './dispatch-endpoint.js';
import type { GatewayContext } from './gateway-context.js';
import type { GatewayRuntime } from './gateway-runtime.js';
import { enforceRequestRules } from './handlers/enforce-request-rules.js';
import { requestPivot } from './handlers/responses-pivot.js';
import { applyTemperatureRuleFirst } from './handlers/temperature-first.js';
import type { LimitAdmission, LimitRequest } from './limits/limit-request.js';
import { hasUnreadBody, loadRequestBody } from './load-request-body.js';
import { isBodyEndpoint, isOpenAIModelCall } from './match-endpoint.js';
import { isThenable, type MaybePromise } from './maybe-promise.js';
import { assertJsonContentType, readJsonBody } from './read-json-body.js';
import { admitCall, needsPlace, settleWhenDone } from './routing/admit-call.js';
import { assertRightInterface } from './schemas/detect-wrong-interface.js';
import { parseRequest } from './schemas/parse-request.js';
import { abortSourceOf } from './signals/abort-source.js';
import { assertRequestClientPresent, clientLeftError } from './signals/client-left.js';
import type { GatewayResponse } from './types.js';

export interface GatewaySteps {
  /** 404/405 for unknown paths, then the caller's key → `ctx.principal` (401). */
  authenticate(ctx: GatewayContext): MaybePromise<void>;
  /** The call's place (model calls only; the caller authenticated first). */
  admit(ctx: GatewayContext): MaybePromise<void>;
  /** The body an adapter left unread, read once the caller is authenticated (only for the endpoints that take one). */
  readBody(ctx: GatewayContext): MaybePromise<void>;
  /** JSON body and schema → `ctx.body`, once the body's bytes are there. */
  validate(ctx: GatewayContext): void;
  /** `validate`, with the body read first when an adapter left it unread. */
  readAndValidate(ctx: GatewayContext): MaybePromise<void>;
  /** Model permission, route and the model matrix's rules. */
  enforceRules(ctx: GatewayContext): MaybePromise<void>;
  /** Serves the endpoint, after any step still missing; a model call takes its place before its body is read. */
  dispatch(ctx: GatewayContext): Promise<GatewayResponse>;
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

/** A synchronous throw as a rejected promise: the dispatch step never throws. */
function rejecting(run: () => Promise<GatewayResponse>): Promise<GatewayResponse> {
  try {
    return run();
  } catch (error) {
    return Promise.reject(error);
  }
}

export function createGatewaySteps(runtime: GatewayRuntime): GatewaySteps {
  const authenticate = (ctx: GatewayContext): MaybePromise<void> => {
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

  /** `next` once the caller is authenticated (at once when it already is, or its key is checked at once). */
  function afterAuthentication<T>(ctx: GatewayContext, next: () => MaybePromise<T>): MaybePromise<T> {
    const authenticating = authenticate(ctx);
    return authenticating ? authenticating.then(next) : next();
  }

  const admit = (ctx: GatewayContext): MaybePromise<void> => admitCall(ctx, runtime.admission);

  const readBody = (ctx: GatewayContext): MaybePromise<void> => {
    const endpoint = requireEndpoint(ctx);
    if (!isBodyEndpoint(endpoint.name) || !hasUnreadBody(ctx.request)) return;
    return afterAuthentication(ctx, () => {
      // A body that is not JSON is refused from its header, not after it was buffered.
      assertJsonContentType(ctx.request);
      return loadRequestBody(ctx.request);
    });
  };

  const validate = (ctx: GatewayContext): void => {
    const endpoint = requireEndpoint(ctx);
    // Once validated, the body stays as the later steps left it (a dropped parameter stays dropped).
    if (!isBodyEndpoint(endpoint.name) || ctx.body) return;
    // The app's ordering mistake, not the client's (a 500 reported to `onError`): say what to change.
    if (hasUnreadBody(ctx.request)) throw new Error('modelgate: validate ran before the request body was read; call gateway.readBody(ctx) first (the adapters\' validate step does).');
    const raw = readJsonBody(ctx.request, runtime.maxBodyBytes);
    // Before any schema work: a body past its bounds is refused at the cost of one walk.
    const outOfBounds = findRequestBoundViolation(endpoint.name, raw, runtime.bounds);
    if (outOfBounds) throw requestBoundsError(outOfBounds);
    // A body written for another interface is named with its fix, for every model and route: a chat
    // schema would let a messages body's `system` through to a chat upstream, which ignores it.
    assertRightInterface(endpoint.name, raw);
    // The temperature rule answers before the schema's range and type checks.
    const checked = applyTemperatureRuleFirst(ctx, raw, runtime.catalog, runtime.options.dropUnsupportedParams === true);
    ctx.body = parseRequest(MODEL_BODY_SCHEMAS[endpoint.name], checked) as Record<string, unknown>;
  };

  const readAndValidate = (ctx: GatewayContext): MaybePromise<void> => {
    const reading = readBody(ctx);
    if (reading) return reading.then(() => validate(ctx));
    validate(ctx);
  };

  const enforceRules = (ctx: GatewayContext): MaybePromise<void> => {
    const endpoint = requireEndpoint(ctx);
    if (!isBodyEndpoint(endpoint.name)) return;
    // The model permission needs the caller: rules never run for an unknown one.
    return afterAuthentication(ctx, () => {
      if (!ctx.body) {
        const validating = readAndValidate(ctx);
        if (validating) return validating.then(() => enforceRules(ctx));
      }
      assertModelAllowed(ctx.principal!, ctx.body!.model as string);
      return enforceRequestRules(ctx, runtime);
    });
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
            return dispatchEndpoint(ctx, runtime);
          })
        : dispatchEndpoint(ctx, runtime);
    } catch (error) {
      ctx.slot?.settle();
      return Promise.reject(error);
    }
    return settleWhenDone(ctx, call);
  };

  /** A model call whose steps have run: the model permission (also when the rules ran before a later step set the principal), its place, the limits, the call. */
  const dispatchChecked = (ctx: GatewayContext): Promise<GatewayResponse> => {
    assertModelAllowed(ctx.principal!, ctx.body!.model as string);
    const admitting = admit(ctx);
    return admitting ? admitting.then(() => dispatchAdmitted(ctx)) : dispatchAdmitted(ctx);
  };

  /**
   * Step 4's work: whatever steps a composed pipeline skipped run here, so nothing
   * unauthenticated, unvalidated or unchecked reaches an upstream.
   */
  const dispatchSteps = (ctx: GatewayContext): Promise<GatewayResponse> =>
    rejecting(() =>
      Promise.resolve(
        afterAuthentication(ctx, () => {
          if (!isBodyEndpoint(requireEndpoint(ctx).name)) return dispatchEndpoint(ctx, runtime);
          if (!ctx.body) {
            const validating = readAndValidate(ctx);
            if (validating) return validating.then(() => dispatchSteps(ctx));
          }
          if (!ctx.route) {
            const enforcing = enforceRules(ctx);
            if (enforcing) return enforcing.then(() => dispatchChecked(ctx));
          }
          return dispatchChecked(ctx);
        }),
      ),
    );

  const dispatch = (ctx: GatewayContext): Promise<GatewayResponse> => {
    if (!needsPlace(ctx)) return dispatchSteps(ctx);
    // A step that fails gives the place back (the handler's end does otherwise).
    const run = (): Promise<GatewayResponse> =>
      dispatchSteps(ctx).catch((error: unknown) => {
        ctx.slot?.settle();
        throw error;
      });
    // The caller first: one without a valid key never holds a place. Then, over capacity, an
    // authenticated call is refused before the steps it still needs (its body read and parsed).
    return rejecting(() =>
      Promise.resolve(
        afterAuthentication(ctx, () => {
          const admitting = admit(ctx);
          return admitting ? admitting.then(run) : run();
        }),
      ),
    );
  };

  return { authenticate, admit, readBody, validate, readAndValidate, enforceRules, dispatch };
}
