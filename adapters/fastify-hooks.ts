/**
 * The gateway's steps as Fastify hooks (`preHandler`) and handlers, the way
 * the Express and Koa adapters offer them as middlewares: a hook either
 * returns (the next hook runs) or answers and ends the request. The
 * context travels with the request (a `WeakMap`, no request decorator;
 * the app reads it with `context(request)`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Gateway } from '../src/gateway.js';
import type { GatewayContext } from '../src/gateway-context.js';
import { type BodyEndpointName, canonicalPath } from '../src/match-endpoint.js';
import type { GatewayResponse, Principal } from '../src/types.js';
import { sendGatewayResponse } from './fastify-reply.js';
import { closeIfBodyUnread, toGatewayRequest } from './node-request.js';
import { type AdapterStep, adapterSteps, beginStepContext, frameworkBodyOf, wrapSteps } from './step-middlewares.js';
import { type GatewayOrOptions, toGateway } from './to-gateway.js';
import { GatewayConfigError } from '../src/options/gateway-config-error.js';
import { got } from '../src/options/option-schemas.js';
import { fromV1Segment } from './v1-path.js';

/** A step as an async Fastify hook or handler: resolves to the reply once it answered, or to nothing to go on. */
export type FastifyGatewayHook = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

/** The gateway's steps; the first four go in `preHandler`, `dispatch` is the route's handler. */
export interface FastifySteps {
  authenticate: FastifyGatewayHook;
  /** Uses the app's own authentication (e.g. `request.user`): return its principal, or null to fall back to gateway keys (401 without one). */
  authenticateWith(getPrincipal: (request: FastifyRequest) => Principal | null | undefined | Promise<Principal | null | undefined>): FastifyGatewayHook;
  validate: FastifyGatewayHook;
  enforceRules: FastifyGatewayHook;
  /** Serves the endpoint (running any step the route skipped); always answers. */
  dispatch: FastifyGatewayHook;
}

/** The hooks and handlers of one gateway. */
export interface FastifyGatewayHooks extends FastifySteps {
  readonly gateway: Gateway;
  /** The gateway's context of a request these hooks began (principal, body, ...), for the app's own hooks between the steps. */
  context(request: FastifyRequest): GatewayContext | undefined;
  /** Per-endpoint handlers; these three work at any path. */
  chatCompletions: FastifyGatewayHook;
  messages: FastifyGatewayHook;
  countTokens: FastifyGatewayHook;
  /** The resource endpoints (`/v1/models...`, `/v1/files...`): they read the endpoint from the URL like the unbound steps. */
  models: FastifyGatewayHook;
  files: FastifyGatewayHook;
  /**
   * The steps bound to one endpoint, for a route at a path of the app's own
   * (`app.post('/ai/chat', { preHandler: [chat.authenticate, ...] }, chat.dispatch)`).
   * The unbound steps read the endpoint from the URL, from its first `/v1` segment on.
   */
  steps(endpoint: BodyEndpointName): FastifySteps;
}

type Step = AdapterStep<FastifyRequest>;

/** Where the URL the core sees comes from: the bound endpoint's path, or the request's own. */
type UrlOf = (request: FastifyRequest) => string;

const queryOf = (url: string): string => {
  const mark = url.indexOf('?');
  return mark === -1 ? '' : url.slice(mark);
};

/**
 * Creates the hooks of a gateway. `fastifyGateway` decorates the app with
 * these as `app.modelgate`; call this directly for a second gateway.
 *
 * @param urlOf The URL the unbound steps present to the core (default: the request's, from its first `/v1` segment on).
 */
export function createFastifyHooks(gatewayOrOptions: GatewayOrOptions, urlOf: UrlOf = (request) => fromV1Segment(request.url)): FastifyGatewayHooks {
  const gateway = toGateway(gatewayOrOptions, 'createFastifyHooks');
  if (typeof urlOf !== 'function') throw new GatewayConfigError('createFastifyHooks', [{ path: 'urlOf', message: `must be \`(request) => url\` (got ${got(urlOf)})` }]);
  const contexts = new WeakMap<FastifyRequest, GatewayContext>();
  const core = adapterSteps<FastifyRequest>(gateway);

  /** The request's context, made by its first hook (with what a raw-body plugin kept, or the route's parser made of the body). */
  function contextOf(request: FastifyRequest, reply: FastifyReply, url: string): GatewayContext {
    const existing = contexts.get(request);
    if (existing) return existing;
    const frameworkBody = () => frameworkBodyOf(request.body, (request as FastifyRequest & { rawBody?: string | Uint8Array }).rawBody);
    const ctx = beginStepContext(gateway, request.raw, reply.raw, { url, frameworkBody });
    contexts.set(request, ctx);
    return ctx;
  }

  const hook = (step: Step, url: UrlOf): FastifyGatewayHook =>
    async function modelgateStep(request, reply) {
      const stepUrl = url(request);
      let ctx: GatewayContext | undefined;
      let response: GatewayResponse | void;
      try {
        ctx = contextOf(request, reply, stepUrl);
        response = await step(ctx, request);
      } catch (error) {
        ctx ??= gateway.begin(toGatewayRequest(request.raw, reply.raw, { url: stepUrl }));
        response = gateway.renderError(ctx, error);
      }
      if (!response) return undefined;
      return sendGatewayResponse(reply, closeIfBodyUnread(request.raw, gateway.finish(ctx, response)));
    };

  const dispatch = core.dispatch;

  function stepsAt(url: UrlOf): FastifySteps {
    return wrapSteps(core, (step) => hook(step, url));
  }
  const at = (endpoint: BodyEndpointName): UrlOf => {
    const path = canonicalPath(endpoint);
    return (request) => path + queryOf(request.url);
  };

  const bound = new Map<BodyEndpointName, FastifySteps>();
  return {
    ...stepsAt(urlOf),
    gateway,
    context: (request) => contexts.get(request),
    chatCompletions: hook(dispatch, at('chat.completions')),
    messages: hook(dispatch, at('messages')),
    countTokens: hook(dispatch, at('messages.count_tokens')),
    models: hook(dispatch, urlOf),
    files: hook(dispatch, urlOf),
    steps(endpoint) {
      let steps = bound.get(endpoint);
      if (steps === undefined) {
        steps = stepsAt(at(endpoint));
        bound.set(endpoint, steps);
      }
      return steps;
    },
  };
}
