/**
 * `POST /v1/messages/count_tokens`: forwarded to the model's messages
 * upstream; counted locally with a real tokenizer when that upstream has no
 * such endpoint (or speaks the chat format), marked
 * `x-modelgate-token-count: estimated`. Never a made-up zero.
 */
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import type { CountTokensRequest } from '../schemas/index.js';
import type { GatewayResponse, JsonResponse } from '../types.js';
import { discardBody } from '../upstreams/read-body.js';
import { type CallPlan, clientAbort, sendPlans } from './call-upstream.js';
import { requestTimeoutOf } from '../signals/request-deadline.js';
import { relayJsonBytes } from './relay-response.js';

/** Upstream statuses meaning "this upstream has no count_tokens endpoint". */
const NO_ENDPOINT = new Set([404, 405, 501]);

async function countLocally(body: CountTokensRequest): Promise<JsonResponse> {
  // Loaded on demand: the tokenizer's tables are large and most gateways forward counts.
  const { countMessagesRequestTokens } = await import('../tokens/count-tokens.js');
  return {
    type: 'json',
    status: 200,
    headers: { 'x-modelgate-token-count': 'estimated' },
    body: { input_tokens: countMessagesRequestTokens(body) },
  };
}

export async function handleCountTokens(ctx: GatewayContext, runtime: GatewayRuntime): Promise<GatewayResponse> {
  const body = ctx.body as CountTokensRequest;
  const targets = ctx.route?.targets.filter((target) => target.upstream.format === 'messages') ?? [];
  if (targets.length === 0) return countLocally(body);
  const plans: CallPlan[] = targets.map((target) => {
    const renamed = target.model !== body.model;
    const plan: CallPlan = { target, operation: 'messages.count_tokens', stream: false, body: renamed ? { ...body, model: target.model } : body };
    if (!renamed && !ctx.bodyChanged && ctx.request.rawBody !== undefined) plan.rawBody = ctx.request.rawBody;
    return plan;
  });
  const sent = await sendPlans(ctx, plans, clientAbort(ctx), requestTimeoutOf(runtime.options));
  if (NO_ENDPOINT.has(sent.response.status)) {
    // The answer is not used: its deadline (a timer and a listener) ends here, not 300 s later.
    sent.deadline.release();
    await discardBody(sent.response.body);
    return countLocally(body);
  }
  return relayJsonBytes(ctx, runtime, sent);
}
