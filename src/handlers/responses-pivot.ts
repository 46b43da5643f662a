/**
 * A Responses request's chat pivot, made once per request: the limits'
 * estimate (token and budget rules count the resolved input, before the
 * call is admitted) and the handler read the same one, so the store is
 * read once.
 *
 * @internal
 */
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import { type ChatPivot, chatPivotOf } from '../responses/chat-pivot.js';
import type { ResponsesRequest } from '../schemas/responses-request.js';

const pivots = new WeakMap<GatewayContext, Promise<ChatPivot>>();

/** The pivot of `ctx`'s validated body for its caller; needs `ctx.body` and `ctx.principal`. */
export function requestPivot(ctx: GatewayContext, runtime: GatewayRuntime): Promise<ChatPivot> {
  let pivot = pivots.get(ctx);
  if (pivot === undefined) {
    const principal = ctx.principal;
    if (!ctx.body || !principal) return Promise.reject(new TypeError('requestPivot needs ctx.body and ctx.principal'));
    pivot = chatPivotOf(ctx.body as ResponsesRequest, { owner: principal.id, responses: runtime.responses, bounds: runtime.bounds });
    pivots.set(ctx, pivot);
  }
  return pivot;
}

/** Drops the pivot made so far: the body changed (an input guard rewrote it), so the next `requestPivot` makes it anew. */
export function forgetPivot(ctx: GatewayContext): void {
  pivots.delete(ctx);
}
