/**
 * `POST /v1/messages`: relayed to messages upstreams (the caller's bytes
 * when nothing changed), or translated for a chat upstream when the route
 * opts in with `serveMessages` (other vendors' models behind the vendor client).
 */
import { randomUUID } from 'node:crypto';
import { messagesModelNotFound } from '../models/messages-model-not-found.js';
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import type { ChatCompletion, MessagesRequest } from '../schemas/index.js';
import { chatToMessagesResponse } from '../translate/chat-to-messages-response.js';
import { createChatToMessagesStream } from '../translate/chat-to-messages-stream.js';
import { messagesToChatRequest } from '../translate/messages-to-chat-request.js';
import type { GatewayResponse } from '../types.js';
import type { RouteTarget } from '../routing/routes.js';
import { type CallPlan, upstreamSignal } from './call-upstream.js';
import { sendOrReplay } from '../cache/cached-send.js';
import { modelsOnMessages } from './models-on-messages.js';
import { guardRequest, requestGuards } from './guard-request.js';
import { guardAnswer, guardStream } from './guard-answer.js';
import { hasOutputGuards } from '../guards/answer-slots.js';
import { requestTimeoutOf } from '../signals/request-deadline.js';
import { jsonResponse, readSuccessJson, relayStream, relayUnchanged } from './relay-response.js';
import { sealingFor } from './plan-sealing.js';

interface MessagesPlan extends CallPlan {
  translated: boolean;
}

function planMessagesCall(ctx: GatewayContext, runtime: GatewayRuntime, body: MessagesRequest, target: RouteTarget): MessagesPlan {
  const stream = body.stream === true;
  if (target.upstream.format === 'messages') {
    const renamed = target.model !== body.model;
    const plan: MessagesPlan = { target, operation: 'messages', stream, translated: false, body: renamed ? { ...body, model: target.model } : body };
    if (!renamed && !ctx.bodyChanged && ctx.request.rawBody !== undefined) plan.rawBody = ctx.request.rawBody;
    return plan;
  }
  if (ctx.route?.route.serveMessages !== true) {
    throw messagesModelNotFound({ model: body.model, available: modelsOnMessages(runtime, ctx.principal), chatOnly: true });
  }
  const translation = messagesToChatRequest(body, {
    upstreamModel: target.model,
    dropUnsupportedParams: runtime.options.dropUnsupportedParams === true,
  });
  for (const warning of translation.warnings) if (!ctx.warnings.includes(warning)) ctx.warnings.push(warning);
  return { target, operation: 'chat.completions', stream, translated: true, body: translation.request, ...sealingFor(ctx, runtime, target, body.model) };
}

export async function handleMessages(ctx: GatewayContext, runtime: GatewayRuntime): Promise<GatewayResponse> {
  const route = ctx.route;
  if (!route) throw new TypeError('handleMessages needs ctx.route');
  const guards = requestGuards(ctx, runtime);
  await guardRequest(ctx, 'messages', guards);
  const body = ctx.body as MessagesRequest;
  const plans = route.targets.map((target) => planMessagesCall(ctx, runtime, body, target));
  const sent = await sendOrReplay(ctx, runtime, plans, upstreamSignal(ctx, body.stream === true), requestTimeoutOf(runtime.options));
  const guardsOutput = hasOutputGuards(guards);
  if (!sent.plan.translated) {
    if (!guardsOutput) return relayUnchanged(ctx, runtime, sent, 'messages');
    if (sent.plan.stream) return guardStream(ctx, guards, 'messages', await relayUnchanged(ctx, runtime, sent, 'messages'));
    // The guards rewrite the parsed answer in place: a cache fill has already written its own text, and a hit parses a fresh one.
    const answer = (await readSuccessJson(ctx, runtime, sent)) as Record<string, unknown>;
    await guardAnswer(ctx, guards, 'messages', answer);
    return jsonResponse(sent, answer);
  }
  const id = `msg_${randomUUID().replace(/-/g, '')}`;
  if (sent.plan.stream) {
    const relayed = await relayStream(ctx, runtime, sent, { format: 'messages', transform: createChatToMessagesStream({ model: body.model, id }) });
    return guardsOutput ? guardStream(ctx, guards, 'messages', relayed) : relayed;
  }
  const json = (await readSuccessJson(ctx, runtime, sent)) as ChatCompletion;
  const answer = chatToMessagesResponse(json, { model: body.model, id });
  if (guardsOutput) await guardAnswer(ctx, guards, 'messages', answer as unknown as Record<string, unknown>);
  return jsonResponse(sent, answer);
}
