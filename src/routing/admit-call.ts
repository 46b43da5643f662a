/**
 * The pipeline's admission step: which calls take a place, taking it once
 * per request, and giving it back when the handler is done.
 *
 * @internal
 */
import type { GatewayContext } from '../gateway-context.js';
import { isBodyEndpoint } from '../match-endpoint.js';
import { isThenable, type MaybePromise } from '../maybe-promise.js';
import { abortSourceOf } from '../signals/abort-source.js';
import type { GatewayResponse } from '../types.js';
import type { Admission } from './admission.js';

/**
 * The calls admission control counts (and a shutdown refuses): those that
 * generate, and may stream, and the token counts (`count_tokens`,
 * `input_tokens`), which run the tokenizer on the caller's whole prompt or
 * call an upstream, and read the response store. Listings, files and stored
 * responses are short and hold no stream.
 */
function isAdmitted(name: string | undefined): boolean {
  return isBodyEndpoint(name);
}

/** Whether `ctx` is a call that needs a place it does not hold yet. */
export function needsPlace(ctx: GatewayContext): boolean {
  return ctx.slot === undefined && isAdmitted(ctx.endpoint?.name);
}

/**
 * Takes the call's place (once per request): at once, after a wait in the
 * queue, or a thrown refusal. Runs once the caller is authenticated: the
 * place counts against its principal's share, and a caller without a valid
 * key never holds one.
 */
export function admitCall(ctx: GatewayContext, admission: Admission): MaybePromise<void> {
  if (!needsPlace(ctx)) return;
  const principal = ctx.principal;
  // The pipeline authenticates first; a place for no one would be a step out of order.
  if (principal === undefined) throw new Error('modelgate: a model call was admitted before its caller was authenticated.');
  const entered = admission.enter(ctx.format, abortSourceOf(ctx.request), principal.id);
  if (!isThenable(entered)) {
    ctx.slot = entered;
    return;
  }
  return entered.then((slot) => {
    ctx.slot = slot;
  });
}

/** `call`, settling the call's place when it ends (its streams hold the place until they end). */
export function settleWhenDone(ctx: GatewayContext, call: Promise<GatewayResponse>): Promise<GatewayResponse> {
  const slot = ctx.slot;
  if (slot === undefined) return call;
  return call.then(
    (response) => {
      slot.settle();
      return response;
    },
    (error: unknown) => {
      slot.settle();
      throw error;
    },
  );
}
