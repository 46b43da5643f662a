/**
 * `POST /v1/chat/completions` for every model: relayed unchanged to chat
 * upstreams, translated for messages upstreams, with `n > 1`
 * fanned out to one messages call per choice.
 */
import { randomUUID } from 'node:crypto';
import { GatewayError } from '../errors.js';
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import { enforceModelRules } from '../models/enforce-model-rules.js';
import type { ChatCompletionRequest, MessagesResponse } from '../schemas/index.js';
import { chatToMessagesRequest } from '../translate/chat-to-messages-request.js';
import { messagesToChatResponse } from '../translate/messages-to-chat-response.js';
import { createMessagesToChatStream } from '../translate/messages-to-chat-stream.js';
import type { GatewayResponse } from '../types.js';
import type { RouteTarget } from '../routing/routes.js';
import { type CallPlan, sendPlans, upstreamSignal } from './call-upstream.js';
import { requestTimeoutOf } from '../signals/request-deadline.js';
import { fanOutChat } from './fan-out-chat.js';
import { createUsageHidingTransform, needsStreamUsage, withStreamUsage } from './hide-stream-usage.js';
import { jsonResponse, readSuccessJson, relayStream, relayUnchanged } from './relay-response.js';
import { wantsUsage } from './report-usage.js';

/** A plan plus what the response translation needs. */
export interface ChatPlan extends CallPlan {
  translated: boolean;
  jsonPrefill?: string;
  /** The gateway added `include_usage` for `onUsage`: the usage chunk is not the caller's. */
  hideUsage?: boolean;
}

/** Builds the call for one target: the caller's body for chat upstreams, a translation for messages upstreams. */
export function planChatCall(ctx: GatewayContext, runtime: GatewayRuntime, body: ChatCompletionRequest, target: RouteTarget): ChatPlan {
  const stream = body.stream === true;
  if (target.upstream.format === 'chat') {
    const renamed = target.model !== body.model;
    const hideUsage = needsStreamUsage(body, wantsUsage(runtime));
    let sent = renamed ? { ...body, model: target.model } : body;
    if (hideUsage) sent = withStreamUsage(sent);
    const plan: ChatPlan = { target, operation: 'chat.completions', stream, translated: false, body: sent };
    if (hideUsage) plan.hideUsage = true;
    else if (!renamed && !ctx.bodyChanged && ctx.request.rawBody !== undefined) plan.rawBody = ctx.request.rawBody;
    return plan;
  }
  const translation = chatToMessagesRequest(body, {
    model: ctx.model,
    upstreamModel: target.model,
    ...(runtime.options.defaultMaxTokens !== undefined ? { defaultMaxTokens: runtime.options.defaultMaxTokens } : {}),
    ...(runtime.options.reasoningBudgets ? { reasoningBudgets: runtime.options.reasoningBudgets } : {}),
    dropUnsupportedParams: runtime.options.dropUnsupportedParams === true,
  });
  // The translated request must pass the same model rules a direct messages call would (thinking budget, ...).
  if (ctx.model) enforceModelRules(translation.request, ctx.model);
  for (const warning of translation.warnings) if (!ctx.warnings.includes(warning)) ctx.warnings.push(warning);
  const plan: ChatPlan = { target, operation: 'messages', stream, translated: true, body: translation.request };
  if (translation.jsonPrefill !== undefined) plan.jsonPrefill = translation.jsonPrefill;
  return plan;
}

function checkChoices(body: ChatCompletionRequest, runtime: GatewayRuntime): number {
  const n = body.n ?? 1;
  if (n > runtime.maxChoices) {
    const message = runtime.maxChoices === 1
      ? 'n: this gateway serves one choice per request on this model; send n = 1 (or omit it) and repeat the request for more.'
      : `n: at most ${runtime.maxChoices} choices per request on this model, got ${n}.`;
    throw new GatewayError('INVALID_REQUEST', message, { param: 'n' });
  }
  return n;
}

export async function handleChatCompletions(ctx: GatewayContext, runtime: GatewayRuntime): Promise<GatewayResponse> {
  const body = ctx.body as ChatCompletionRequest;
  const route = ctx.route;
  if (!route) throw new TypeError('handleChatCompletions needs ctx.route');
  let plans = route.targets.map((target) => planChatCall(ctx, runtime, body, target));
  const translatedFirst = plans[0]?.translated === true;
  // Chat upstreams answer `n` choices in one call, messages ones are fanned out: a fallback of the
  // other wire format could not keep the primary's promise of n choices, so it is not tried.
  if ((body.n ?? 1) > 1) plans = plans.filter((plan) => plan.translated === translatedFirst);
  const n = translatedFirst ? checkChoices(body, runtime) : 1;
  if (n > 1) return fanOutChat(ctx, runtime, plans, n);

  const sent = await sendPlans(ctx, plans, upstreamSignal(ctx, body.stream === true), requestTimeoutOf(runtime.options));
  const plan = sent.plan;
  if (!plan.translated) {
    if (plan.stream && plan.hideUsage) return relayStream(ctx, runtime, sent, { format: 'chat', transform: createUsageHidingTransform() });
    return relayUnchanged(ctx, runtime, sent, 'chat');
  }
  const id = `chatcmpl-${randomUUID().replace(/-/g, '')}`;
  const created = Math.floor(Date.now() / 1000);
  if (plan.stream) {
    const transform = createMessagesToChatStream({
      model: body.model,
      id,
      created,
      includeUsage: body.stream_options?.include_usage === true,
      ...(plan.jsonPrefill !== undefined ? { jsonPrefill: plan.jsonPrefill } : {}),
    });
    return relayStream(ctx, runtime, sent, { format: 'chat', transform });
  }
  const json = (await readSuccessJson(ctx, runtime, sent)) as MessagesResponse;
  return jsonResponse(sent, messagesToChatResponse(json, {
    model: body.model,
    id,
    created,
    ...(plan.jsonPrefill !== undefined ? { jsonPrefill: plan.jsonPrefill } : {}),
  }));
}
