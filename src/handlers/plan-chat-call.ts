/**
 * The call one chat-completions request makes to one route target: the
 * caller's body for chat upstreams, a translation for messages upstreams.
 * Shared by the chat-completions and Responses handlers and the `n > 1`
 * fan-out.
 */
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import { enforceModelRules } from '../models/enforce-model-rules.js';
import type { RouteTarget } from '../routing/routes.js';
import type { ChatCompletionRequest } from '../schemas/index.js';
import { chatToMessagesRequest } from '../translate/chat-to-messages-request.js';
import type { CallPlan } from './call-upstream.js';
import { needsStreamUsage, withStreamUsage } from './hide-stream-usage.js';
import { wantsUsage } from './report-usage.js';
import { sealingFor } from './plan-sealing.js';

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
    const plan: ChatPlan = { target, operation: 'chat.completions', stream, translated: false, body: sent, ...sealingFor(ctx, runtime, target, body.model) };
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
