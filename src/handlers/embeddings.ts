/**
 * `POST /v1/embeddings`: the OpenAI embeddings request, sent to the route's
 * chat-format targets (OpenAI-compatible servers, Azure OpenAI, the
 * simulator, and any upstream that implements the `embeddings` operation)
 * with the same retries, fallbacks, limits and usage records as chat, and
 * their answer relayed as it came. Messages-format upstreams create no
 * embeddings: a route's messages targets are left out, and a model only
 * they serve is refused before any call.
 */
import { GatewayError } from '../errors.js';
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import type { CallPlan } from '../routing/call-plan.js';
import type { RouteTarget } from '../routing/routes.js';
import type { EmbeddingsRequest } from '../schemas/embeddings-request.js';
import { requestTimeoutOf } from '../signals/request-deadline.js';
import type { GatewayResponse } from '../types.js';
import { sendPlans, upstreamSignal } from './call-upstream.js';
import { relayJsonBytes } from './relay-response.js';

/** The call to one target: the caller's bytes when nothing changed, else the body under the target's model id. */
function planEmbeddingsCall(ctx: GatewayContext, body: EmbeddingsRequest, target: RouteTarget): CallPlan {
  const renamed = target.model !== body.model;
  const plan: CallPlan = { target, operation: 'embeddings', stream: false, body: renamed ? { ...body, model: target.model } : body };
  if (!renamed && !ctx.bodyChanged && ctx.request.rawBody !== undefined) plan.rawBody = ctx.request.rawBody;
  return plan;
}

/** The 400 for a model whose route reaches no upstream that creates embeddings. */
function noEmbeddingsError(model: string): GatewayError {
  return new GatewayError(
    'INVALID_REQUEST',
    `model: \`${model}\` is served here by messages-format upstreams only, which create no embeddings. Send an embedding model (GET /v1/models lists them, with "embeddings" in modelgate.interfaces).`,
    { param: 'model', chatCode: 'model_not_supported' },
  );
}

export async function handleEmbeddings(ctx: GatewayContext, runtime: GatewayRuntime): Promise<GatewayResponse> {
  const body = ctx.body as EmbeddingsRequest;
  const route = ctx.route;
  if (!route) throw new TypeError('handleEmbeddings needs ctx.route');
  const plans = route.targets.filter((target) => target.upstream.format === 'chat').map((target) => planEmbeddingsCall(ctx, body, target));
  if (plans.length === 0) throw noEmbeddingsError(body.model);
  const sent = await sendPlans(ctx, plans, upstreamSignal(ctx, false), requestTimeoutOf(runtime.options));
  return relayJsonBytes(ctx, runtime, sent);
}
