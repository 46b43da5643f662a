/**
 * `POST /v1/responses` for every model: the Responses request (with its
 * stored history resolved) becomes a chat-completions request, which goes
 * the way every chat request goes (as it is to chat upstreams, translated
 * for messages upstreams); the answer comes back as a Response, streamed
 * with the Responses event grammar or whole, and is stored when asked.
 */
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import { isGatewayError } from '../errors.js';
import { holdUntilStored } from '../responses/hold-until-stored.js';
import { isResponseStoreUnavailable, reportNotStored } from '../responses/not-stored.js';
import type { StoredResponse } from '../responses/response-store.js';
import { newResponseId } from '../responses/response-ids.js';
import { inResponsesTerms } from '../responses/responses-param-names.js';
import type { ChatCompletion, ChatCompletionRequest, MessagesResponse } from '../schemas/index.js';
import type { ResponsesRequest } from '../schemas/responses-request.js';
import { clientView } from '../responses/response-object.js';
import { chatToResponsesResponse } from '../translate/chat-to-responses-response.js';
import { createChatToResponsesStream } from '../translate/chat-to-responses-stream.js';
import { messagesToResponsesResponse } from '../translate/messages-to-responses-response.js';
import { createMessagesToResponsesStream } from '../translate/messages-to-responses-stream.js';
import type { ResponseAnswerOptions } from '../translate/responses-output.js';
import { lacksRequiredThinking } from '../translate/lacks-required-thinking.js';
import type { GatewayResponse } from '../types.js';
import type { RouteTarget } from '../routing/routes.js';
import { upstreamSignal } from './call-upstream.js';
import { sendOrReplay } from '../cache/cached-send.js';
import { type ChatPlan, planChatCall } from './plan-chat-call.js';
import { jsonResponse, readSuccessJson, relayStream } from './relay-response.js';
import { requestTimeoutOf } from '../signals/request-deadline.js';
import { forgetPivot, requestPivot } from './responses-pivot.js';
import { sealingFor } from './plan-sealing.js';
import { guardRequest, requestGuards } from './guard-request.js';
import { guardAnswer, responsesStreamEditor } from './guard-answer.js';
import { guardEventStream } from '../guards/stream/guard-event-stream.js';
import { hasOutputGuards } from '../guards/answer-slots.js';

const ENCRYPTED_REASONING = 'reasoning.encrypted_content';

/** The chat request for a chat upstream: earlier thinking (the vendor's signed blocks) means nothing there. */
function withoutThinkingBlocks(request: ChatCompletionRequest): ChatCompletionRequest {
  if (!request.messages.some((message) => 'thinking_blocks' in message)) return request;
  return {
    ...request,
    messages: request.messages.map((message) => {
      if (!('thinking_blocks' in message)) return message;
      const { thinking_blocks: _dropped, ...rest } = message as typeof message & { thinking_blocks?: unknown };
      return rest as typeof message;
    }),
  };
}

/**
 * The call for one target. A messages upstream with thinking on refuses a tool-use turn in
 * progress whose earlier thinking could not be restored: thinking is switched off for that call.
 */
function planResponsesCall(ctx: GatewayContext, runtime: GatewayRuntime, request: ChatCompletionRequest, target: RouteTarget): ChatPlan {
  if (target.upstream.format === 'chat') {
    const body = withoutThinkingBlocks(target.model === request.model ? request : { ...request, model: target.model });
    return { target, operation: 'chat.completions', stream: request.stream === true, translated: false, body, ...sealingFor(ctx, runtime, target, request.model) };
  }
  let sent = request;
  if (request.reasoning_effort != null && lacksRequiredThinking(request)) {
    const { reasoning_effort: _off, ...rest } = request;
    sent = rest;
    const note = 'reasoning: thinking is off for this turn: the earlier thinking of the tool call it answers could not be restored (send reasoning items back with encrypted_content, or keep responses in a store)';
    if (!ctx.warnings.includes(note)) ctx.warnings.push(note);
  }
  return planChatCall(ctx, runtime, sent, target);
}

/** Whether this response is kept: `store: false` never; otherwise when a store is configured. */
function keeps(body: ResponsesRequest, runtime: GatewayRuntime): boolean {
  return body.store !== false && runtime.responses.store !== undefined;
}

/**
 * Whether the response can be kept: the store's quota check refuses a full
 * one (4xx); while the store is down, `responses.onStoreError` decides
 * between answering without storing and a 503.
 */
async function roomToStore(ctx: GatewayContext, runtime: GatewayRuntime, owner: string): Promise<boolean> {
  try {
    await runtime.responses.store!.checkRoom?.(owner);
    return true;
  } catch (error) {
    if (!isResponseStoreUnavailable(error) || runtime.responses.onStoreError === 'closed') throw error;
    reportNotStored(ctx, runtime, error, { headersSent: false });
    return false;
  }
}

/**
 * Stores the record; a store's own refusal (a 4xx: a quota) is the caller's to see. A store that
 * fails or times out leaves the answer delivered, not stored, and says so (`store` false in it).
 */
async function putOrRefuse(ctx: GatewayContext, runtime: GatewayRuntime, record: StoredResponse): Promise<void> {
  try {
    await runtime.responses.store!.put(record);
  } catch (error) {
    if (isResponseStoreUnavailable(error)) {
      record.response.store = false;
      reportNotStored(ctx, runtime, error, { headersSent: false });
      return;
    }
    // A later turn that names it gets previous_response_not_found.
    if (isGatewayError(error) && error.expose) throw error;
  }
}

/** Stores a streamed response once its terminal event is made (the headers are out): a failure is only reported. */
function putAfterStream(ctx: GatewayContext, runtime: GatewayRuntime, record: StoredResponse): Promise<void> {
  return runtime.responses.store!.put(record).catch((error: unknown) => {
    if (isResponseStoreUnavailable(error)) reportNotStored(ctx, runtime, error, { headersSent: true });
  });
}

export async function handleResponses(ctx: GatewayContext, runtime: GatewayRuntime): Promise<GatewayResponse> {
  const route = ctx.route;
  const principal = ctx.principal;
  if (!route || !principal) throw new TypeError('handleResponses needs ctx.route and ctx.principal');
  const guards = requestGuards(ctx, runtime);
  // The limits may have made the pivot of the body as it came: a rewritten body needs its own.
  if (await guardRequest(ctx, 'responses', guards)) forgetPivot(ctx);
  const body = ctx.body as ResponsesRequest;
  const { seal } = runtime.responses;
  // Made already when a token or budget limit counted it.
  const pivot = await requestPivot(ctx, runtime);
  const { items } = pivot;
  for (const name of pivot.dropped) if (!ctx.dropped.includes(name)) ctx.dropped.push(name);
  for (const warning of pivot.warnings) if (!ctx.warnings.includes(warning)) ctx.warnings.push(warning);

  const stream = body.stream === true;
  // A full quota refuses the request before the upstream is called: no answer is bought that could not be kept.
  const stored = keeps(body, runtime) && (await roomToStore(ctx, runtime, principal.id));
  let plans: ChatPlan[];
  try {
    plans = route.targets.map((target) => planResponsesCall(ctx, runtime, pivot.request, target));
  } catch (error) {
    // The translation's refusals name fields of the chat pivot; the caller sent Responses fields.
    throw inResponsesTerms(error);
  }
  const sent = await sendOrReplay(ctx, runtime, plans, upstreamSignal(ctx, stream), requestTimeoutOf(runtime.options));
  const plan = sent.plan;
  const id = newResponseId();
  const createdAt = Math.floor(Date.now() / 1000);
  const includeEncrypted = body.include?.includes(ENCRYPTED_REASONING) === true;
  const answer: ResponseAnswerOptions = {
    id,
    createdAt,
    model: body.model,
    // `store` as applied: true only when the response is kept.
    request: { ...body, store: stored },
    customTools: new Set(pivot.customTools),
    includeEncrypted,
    seal: (blocks) => seal.seal(blocks, { principal: principal.id, model: body.model }),
  };
  const record = (response: Record<string, unknown>): StoredResponse => ({
    id,
    owner: principal.id,
    createdAt,
    response,
    input: items,
    ...(pivot.previous ? { previous: pivot.previous } : {}),
  });
  const prefill = plan.jsonPrefill !== undefined ? { jsonPrefill: plan.jsonPrefill } : {};

  if (plan.stream) {
    const transform = plan.translated ? createMessagesToResponsesStream({ ...answer, ...prefill }) : createChatToResponsesStream(answer);
    const response = await relayStream(ctx, runtime, sent, { format: 'chat', transform });
    // With output guards, the client gets (and the store keeps) the response as the guards left it.
    const guarded = responsesStreamEditor(ctx, guards);
    if (guarded) response.body = guardEventStream(response.body, guarded);
    // The events are out by then: a refused or failed put leaves the answer as sent (a later turn naming it gets
    // previous_response_not_found); the store's time-out bounds how long the terminal event is held.
    if (stored) response.body = holdUntilStored(response.body, guarded ?? transform, (done) => putAfterStream(ctx, runtime, record(done)));
    return response;
  }
  const json = await readSuccessJson(ctx, runtime, sent);
  const response = plan.translated
    ? messagesToResponsesResponse(json as MessagesResponse, { ...answer, ...prefill })
    : chatToResponsesResponse(json as ChatCompletion, answer);
  if (hasOutputGuards(guards)) await guardAnswer(ctx, guards, 'responses', response);
  // A quota that filled up during the call (another request of the same key) is said rather than hidden.
  if (stored) await putOrRefuse(ctx, runtime, record(response));
  return jsonResponse(sent, clientView(response, includeEncrypted));
}
