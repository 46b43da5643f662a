/**
 * What the Express, Koa and Fastify adapters share to offer the gateway's
 * steps as separate middlewares (or hooks): the steps themselves, and the
 * context a request's first step begins. Each adapter keeps only its
 * framework's glue: where the context travels, how an answer is written.
 *
 * @internal
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Gateway } from '../src/gateway.js';
import type { GatewayContext } from '../src/gateway-context.js';
import type { GatewayResponse, Principal } from '../src/types.js';
import { deferGatewayRequest, endObservationOnClose, type FrameworkBody } from './node-request.js';

/** A step given the framework's own request (or context): it answers (a response) or lets the next middleware run. */
export type AdapterStep<Native> = (ctx: GatewayContext, native: Native) => Promise<GatewayResponse | void> | GatewayResponse | void;

/** The app's own authentication: its principal, or null to fall back to the gateway's keys. */
export type GetPrincipal<Native> = (native: Native) => Principal | null | undefined | Promise<Principal | null | undefined>;

/** The steps, as the framework's middlewares (or hooks) `Handler`. */
export interface WrappedSteps<Native, Handler> {
  authenticate: Handler;
  authenticateWith(getPrincipal: GetPrincipal<Native>): Handler;
  validate: Handler;
  enforceRules: Handler;
  dispatch: Handler;
}

/** The gateway's steps, before a framework wraps them. */
export interface AdapterSteps<Native> {
  authenticate: AdapterStep<Native>;
  authenticateWith(getPrincipal: GetPrincipal<Native>): AdapterStep<Native>;
  /** Reads the body here at the latest (the caller authenticated first), then checks it. */
  validate: AdapterStep<Native>;
  enforceRules: AdapterStep<Native>;
  dispatch: AdapterStep<Native>;
}

export function adapterSteps<Native>(gateway: Gateway): AdapterSteps<Native> {
  return {
    authenticate: (ctx) => gateway.authenticate(ctx),
    authenticateWith: (getPrincipal) => async (ctx, native) => {
      const principal = await getPrincipal(native);
      if (principal) ctx.principal = principal;
      else await gateway.authenticate(ctx);
    },
    validate: (ctx) => gateway.readBody(ctx).then(() => gateway.validate(ctx)),
    enforceRules: (ctx) => gateway.enforceRules(ctx),
    dispatch: (ctx) => gateway.dispatch(ctx),
  };
}

/** Each of `steps` wrapped by `wrap` (the framework's middleware at one URL). */
export function wrapSteps<Native, Handler>(steps: AdapterSteps<Native>, wrap: (step: AdapterStep<Native>) => Handler): WrappedSteps<Native, Handler> {
  return {
    authenticate: wrap(steps.authenticate),
    authenticateWith: (getPrincipal) => wrap(steps.authenticateWith(getPrincipal)),
    validate: wrap(steps.validate),
    enforceRules: wrap(steps.enforceRules),
    dispatch: wrap(steps.dispatch),
  };
}

/** What a framework kept of the body: the bytes a raw-body hook kept win over what its parser made of them. */
export function frameworkBodyOf(parsedBody: unknown, rawBody: string | Uint8Array | undefined): FrameworkBody {
  return { parsedBody, ...(rawBody !== undefined ? { rawBody } : {}) };
}

/**
 * Begins the context of a request whose steps run as separate middlewares:
 * the body stays unread until an authenticated step needs it (asking
 * `frameworkBody` again then, as the app may parse it between the steps),
 * within the gateway's `maxBodyBytes` and `bodyTimeoutMs`; the observation
 * ends when the app's answer is sent.
 */
export function beginStepContext(
  gateway: Gateway,
  req: IncomingMessage,
  res: ServerResponse,
  options: { url?: string; frameworkBody: () => FrameworkBody },
): GatewayContext {
  const { maxBodyBytes: limit, bodyTimeoutMs } = gateway.options;
  const request = deferGatewayRequest(req, res, {
    ...(options.url !== undefined ? { url: options.url } : {}),
    frameworkBody: options.frameworkBody,
    ...(limit !== undefined ? { limit } : {}),
    ...(bodyTimeoutMs !== undefined ? { bodyTimeoutMs } : {}),
  });
  const ctx = gateway.begin(request);
  endObservationOnClose(ctx, res);
  return ctx;
}
