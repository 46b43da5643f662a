/**
 * `POST /v1/responses/input_tokens`: the input a `POST /v1/responses` with
 * the same body would send, counted the way `count_tokens` counts: by the
 * model's messages upstream when it has a count endpoint, else locally with
 * the project's tokenizer (`x-modelgate-token-count: estimated`).
 */
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import type { ChatCompletionRequest, MessagesRequest } from '../schemas/index.js';
import type { ResponsesRequest } from '../schemas/responses-request.js';
import { chatToMessagesRequest } from '../translate/chat-to-messages-request.js';
import type { JsonResponse } from '../types.js';
import { discardBody } from '../upstreams/read-body.js';
import { type CallPlan, clientAbort, sendPlans } from './call-upstream.js';
import { readSuccessJson } from './relay-response.js';
import { requestTimeoutOf } from '../signals/request-deadline.js';
import { requestPivot } from './responses-pivot.js';

/** Upstream statuses meaning "this upstream has no count_tokens endpoint". */
const NO_ENDPOINT = new Set([404, 405, 501]);

function answer(inputTokens: number, estimated: boolean): JsonResponse {
  return {
    type: 'json',
    status: 200,
    headers: estimated ? { 'x-modelgate-token-count': 'estimated' } : {},
    body: { object: 'response.input_tokens', input_tokens: inputTokens },
  };
}

/** The fields of a messages request that `count_tokens` takes. */
function countBody(request: MessagesRequest, model: string): Record<string, unknown> {
  const body: Record<string, unknown> = { model, messages: request.messages };
  for (const key of ['system', 'tools', 'tool_choice', 'thinking'] as const) if (request[key] !== undefined) body[key] = request[key];
  return body;
}

export async function handleResponsesInputTokens(ctx: GatewayContext, runtime: GatewayRuntime): Promise<JsonResponse> {
  const body = ctx.body as ResponsesRequest;
  const { request } = await requestPivot(ctx, runtime);
  const tokens = await import('../tokens/count-tokens.js');
  const targets = ctx.route?.targets.filter((target) => target.upstream.format === 'messages') ?? [];
  if (targets.length === 0) return answer(tokens.countChatRequestTokens(request as ChatCompletionRequest), true);

  const translate = (upstreamModel: string): MessagesRequest =>
    chatToMessagesRequest(request, {
      model: ctx.model,
      upstreamModel,
      ...(runtime.options.defaultMaxTokens !== undefined ? { defaultMaxTokens: runtime.options.defaultMaxTokens } : {}),
      ...(runtime.options.reasoningBudgets ? { reasoningBudgets: runtime.options.reasoningBudgets } : {}),
      dropUnsupportedParams: true,
    }).request;
  const plans: CallPlan[] = targets.map((target) => ({
    target,
    operation: 'messages.count_tokens',
    stream: false,
    body: countBody(translate(target.model), target.model),
  }));
  const sent = await sendPlans(ctx, plans, clientAbort(ctx), requestTimeoutOf(runtime.options));
  if (NO_ENDPOINT.has(sent.response.status)) {
    sent.deadline.release();
    await discardBody(sent.response.body);
    return answer(tokens.countMessagesRequestTokens(translate(body.model)), true);
  }
  const counted = (await readSuccessJson(ctx, runtime, sent)) as { input_tokens?: unknown };
  if (typeof counted.input_tokens === 'number') return answer(counted.input_tokens, false);
  return answer(tokens.countMessagesRequestTokens(translate(body.model)), true);
}
