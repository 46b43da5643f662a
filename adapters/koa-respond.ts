/**
 * Hands a gateway response to Koa: JSON as `ctx.body`, a stream as a Node
 * `Readable` (Koa 2 pipes only Node streams), never `ctx.respond = false`.
 *
 * @internal
 */
import type { Context } from 'koa';
import type { GatewayResponse } from '../src/types.js';
import { ChunkReadable, exposeDisconnect } from './koa-stream-body.js';

export function respond(ctx: Context, response: GatewayResponse): void {
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
