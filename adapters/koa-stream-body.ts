/**
 * Streamed answers in Koa: the byte stream Koa pipes (pulling the gateway's
 * relay directly), and the handling of clients that leave mid-stream.
 */
import { Readable } from 'node:stream';
import type { Context } from 'koa';

const noop = (): void => {};

/** Sends a stream's head if its first chunk has not taken it out yet (Koa never calls `writeHead`, so `headersSent` means sent). */
function flushHead(res: Context['res']): void {
  if (!res.headersSent && !res.destroyed) res.flushHeaders();
}

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
export class ChunkReadable extends Readable {
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
   * Koa sends the head with the first chunk. That is one socket write for
   * both when the first chunk is ready within the turn (an upstream usually
   * sends its first event with its head); when it is not, the head goes out
   * on its own at the end of the turn, as SSE clients wait for it before
   * reading and the first event may take a while (the node adapter does the
   * same). The first read comes from Koa's own pipe, after every middleware
   * ran, so the head is final; a body some middleware wrapped (compression)
   * is left to that middleware.
   */
  private sendHead(ctx: Context): void {
    this.ctx = undefined;
    if (ctx.body === this && !ctx.res.headersSent) setImmediate(flushHead, ctx.res);
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
    // After the turn's writes (the head may leave with a chunk pushed this turn) have left.
    setImmediate(this.fail, error instanceof Error ? error : new Error(String(error)));
  };

  private readonly fail = (error: Error): void => {
    this.destroy(error);
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
export function exposeDisconnect(ctx: Context): void {
  const onerror = ctx.onerror;
  ctx.onerror = (error: Error) => {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    if (code !== undefined && DISCONNECT_CODES.has(code) && !ctx.res.writableFinished) {
      (error as Error & { expose?: boolean }).expose = true;
    }
    onerror.call(ctx, error);
  };
}
