/**
 * `modelgate/koa`: mount the gateway in a Koa 2 or 3 app.
 *
 * `koaGateway(...)` is a middleware serving every route under `/v1` (other
 * paths go to `next`); its properties are per-endpoint middlewares and the
 * steps, for `@koa/router`. The context travels in `ctx.state.modelgate`.
 * Responses go through Koa (`ctx.body`), streams as a Node `Readable` so Koa 2
 * pipes them too; all logic lives in the core.
 */
import { Readable } from 'node:stream';
import type { Context, Middleware, Next } from 'koa';
import type { Gateway } from '../src/gateway.js';
import type { GatewayContext } from '../src/gateway-context.js';
import type { GatewayResponse, Principal } from '../src/types.js';
import { type GatewayOrOptions, readGatewayRequest, toGateway, toGatewayRequest } from './node-http.js';

export interface KoaGateway extends Middleware {
  readonly gateway: Gateway;
  chatCompletions: Middleware;
  messages: Middleware;
  countTokens: Middleware;
  models: Middleware;
  files: Middleware;
  authenticate: Middleware;
  /** Uses the app's own authentication (e.g. `ctx.state.user`): return its principal, or null to fall back to gateway keys. */
  authenticateWith(getPrincipal: (ctx: Context) => Principal | null | undefined | Promise<Principal | null | undefined>): Middleware;
  validate: Middleware;
  enforceRules: Middleware;
  dispatch: Middleware;
}

type Step = (gctx: GatewayContext, ctx: Context) => Promise<GatewayResponse | void> | GatewayResponse | void;

const noop = (): void => {};

/**
 * The byte stream Koa pipes for a streamed answer, pulling the gateway's
 * iterator directly (no async loop as in `Readable.from`): a chunk is pushed,
 * and so written, the moment the relay yields it. While Koa's pipe flows the
 * next chunk is asked for at once (chunks already waiting leave in the same
 * socket write) rather than on `Readable`'s next tick. `highWaterMark` 0:
 * once the socket is backed up (the pipe paused), at most the one chunk
 * already asked for waits here and the relay is not pulled again until the
 * socket drains.
 */
class ChunkReadable extends Readable {
  private readonly chunks: AsyncIterator<Uint8Array>;
  private readonly res: Context['res'];
  /** Set until the first read. */
  private ctx: Context | undefined;
  /** The iterator ended or failed: nothing to stop on destroy. */
  private settled = false;
  /** A `next()` is in flight (never two at once). */
  private pulling = false;

  constructor(body: AsyncIterable<Uint8Array>, ctx: Context) {
    super({ highWaterMark: 0 });
    this.chunks = body[Symbol.asyncIterator]();
    this.res = ctx.res;
    this.ctx = ctx;
  }

  override _read(): void {
    if (this.ctx !== undefined) this.sendHead(this.ctx);
    if (!this.pulling) this.pull();
  }

  private pull(): void {
    this.pulling = true;
    this.chunks.next().then(this.onNext, this.onError);
  }

  /**
   * Koa would send the head with the first chunk; SSE clients wait for it
   * before reading, and the first event may take a while (the node adapter
   * flushes it at once too). The first read comes from Koa's own pipe, after
   * every middleware ran, so the head is final; a body some middleware
   * wrapped (compression) is left to that middleware.
   */
  private sendHead(ctx: Context): void {
    this.ctx = undefined;
    if (ctx.body === this && !ctx.res.headersSent) ctx.res.flushHeaders();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.settled) {
      this.settled = true;
      // The client left (or a later middleware dropped the body): the relay aborts its upstream.
      this.chunks.return?.().catch(noop);
    }
    callback(error);
  }

  private readonly onNext = (result: IteratorResult<Uint8Array>): void => {
    this.pulling = false;
    if (this.destroyed) return;
    if (result.done) {
      this.settled = true;
      this.push(null);
      return;
    }
    // Paused (the socket is full) or not piped: `_read` asks again when the consumer wants more.
    if (this.push(result.value) && this.readableFlowing === true) this.pull();
  };

  /**
   * The relay reports faults in-band and never rejects; should a body still
   * fail, the app hears of it (Koa reports the stream's error) and the
   * client's connection is cut (Koa 2's pipe would leave it open): after
   * the head, nothing else can tell the client the answer is incomplete.
   */
  private readonly onError = (error: unknown): void => {
    this.settled = true;
    this.destroy(error instanceof Error ? error : new Error(String(error)));
    this.res.destroy();
  };
}

/** How a client leaving mid-stream reaches `ctx.onerror`: Koa 3's `stream.pipeline` ("Premature close"), or the socket (a reset with unread data, a write after it closed). */
const DISCONNECT_CODES = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE']);

/**
 * Marks a client's disconnect from an unfinished stream `expose`, so that
 * Koa's default error handler does not log it as a server fault (the
 * upstream is aborted either way). The app's own `error` listeners still
 * receive it, and every other error is untouched.
 */
function exposeDisconnect(ctx: Context): void {
  const onerror = ctx.onerror;
  ctx.onerror = (error: Error) => {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    if (code !== undefined && DISCONNECT_CODES.has(code) && !ctx.res.writableFinished) {
      (error as Error & { expose?: boolean }).expose = true;
    }
    onerror.call(ctx, error);
  };
}

/** Hands a gateway response to Koa. */
function respond(ctx: Context, response: GatewayResponse): void {
  ctx.status = response.status;
  ctx.set(response.headers);
  if (response.type === 'json') {
    ctx.body = response.body;
    return;
  }
  if (response.body instanceof Uint8Array) {
    ctx.body = Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength);
    return;
  }
  ctx.body = new ChunkReadable(response.body, ctx);
  exposeDisconnect(ctx);
}

/**
 * Creates the Koa middleware.
 *
 * @example
 * app.use(koaGateway({ auth: { keys: ['sk-local'] } }));
 */
export function koaGateway(gatewayOrOptions: GatewayOrOptions): KoaGateway {
  const gateway = toGateway(gatewayOrOptions);
  const limit = gateway.options.maxBodyBytes;

  async function contextOf(ctx: Context, url?: string): Promise<GatewayContext> {
    const existing = ctx.state.modelgate as GatewayContext | undefined;
    if (existing) return existing;
    const koaRequest = ctx.request as Context['request'] & { body?: unknown; rawBody?: string };
    const request = await readGatewayRequest(ctx.req, ctx.res, {
      url: url ?? ctx.url,
      parsedBody: koaRequest.body,
      ...(koaRequest.rawBody !== undefined ? { rawBody: koaRequest.rawBody } : {}),
      ...(limit !== undefined ? { limit } : {}),
    });
    const gctx = gateway.begin(request);
    ctx.state.modelgate = gctx;
    return gctx;
  }

  const middleware = (step: Step, url?: string): Middleware =>
    async function modelgateStep(ctx: Context, next: Next) {
      const stepUrl = url === undefined ? undefined : url + ctx.search;
      let gctx: GatewayContext | undefined;
      let response: GatewayResponse | void;
      try {
        gctx = await contextOf(ctx, stepUrl);
        response = await step(gctx, ctx);
      } catch (error) {
        gctx ??= gateway.begin(toGatewayRequest(ctx.req, ctx.res, { url: stepUrl ?? ctx.url }));
        response = gateway.renderError(gctx, error);
      }
      // Outside the try: errors of the app's own later middleware are the app's, not the gateway's.
      if (!response) return next();
      respond(ctx, gateway.finish(gctx, response));
    };

  const dispatch: Step = (gctx) => gateway.dispatch(gctx);
  const all = middleware(dispatch);
  const root = async function modelgate(ctx: Context, next: Next) {
    if (!ctx.path.startsWith('/v1/') && ctx.path !== '/v1') return next();
    return all(ctx, next);
  } as KoaGateway;

  return Object.assign(root, {
    gateway,
    chatCompletions: middleware(dispatch, '/v1/chat/completions'),
    messages: middleware(dispatch, '/v1/messages'),
    countTokens: middleware(dispatch, '/v1/messages/count_tokens'),
    models: middleware(dispatch),
    files: middleware(dispatch),
    authenticate: middleware((gctx) => gateway.authenticate(gctx)),
    authenticateWith: (getPrincipal: (ctx: Context) => Principal | null | undefined | Promise<Principal | null | undefined>) =>
      middleware(async (gctx, ctx) => {
        const principal = await getPrincipal(ctx);
        if (principal) gctx.principal = principal;
        else await gateway.authenticate(gctx);
      }),
    validate: middleware((gctx) => gateway.validate(gctx)),
    enforceRules: middleware((gctx) => gateway.enforceRules(gctx)),
    dispatch: middleware(dispatch),
  });
}

export { createGateway } from '../src/gateway.js';
export type { Gateway } from '../src/gateway.js';
export type { GatewayOptions } from '../src/gateway-options.js';
