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
import type { RouteTarget } from '../routing/route-types.js';
import type { UpstreamSealing } from '../upstreams/upstream.js';

/**
 * The sealing of `ctx`'s caller for `model` (the model id of the caller's
 * request), as a plan field: only for a target whose upstream seals what it
 * hands callers (`sealsReplies`); other calls carry none and cost nothing.
 */
export function sealingFor(ctx: GatewayContext, runtime: GatewayRuntime, target: RouteTarget, model: string): { sealing?: UpstreamSealing } {
  if (target.upstream.sealsReplies !== true) return {};
  return { sealing: runtime.responses.signatures.bind({ principal: ctx.principal?.id ?? '', model }) };
}
