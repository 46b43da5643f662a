/**
 * The sealing a chat-format call carries: what its upstream hands the caller
 * to send back (Gemini's thought signatures, inside tool-call ids) is sealed
 * for this caller and the model they named, the name that stays the same
 * from turn to turn whichever deployment answers.
 *
 * @internal
 */
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import type { UpstreamSealing } from '../upstreams/upstream.js';

/** The sealing of `ctx`'s caller for `model` (the model id of the caller's request). */
export function sealingFor(ctx: GatewayContext, runtime: GatewayRuntime, model: string): UpstreamSealing {
  return runtime.responses.signatures.bind({ principal: ctx.principal?.id ?? '', model });
}
