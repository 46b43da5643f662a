/**
 * `POST /v1/chat/completions` for every model: relayed unchanged to chat
 * upstreams, translated for messages upstreams, with `n > 1`
 * fanned out to one messages call per choice.
 */
import { randomUUID } from 'node:crypto';
import { GatewayError } from '../errors.js';
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import type { ChatCompletionRequest, MessagesResponse } from '../schemas/index.js';
import { messagesToChatResponse } from '../translate/messages-to-chat-response.js';
import { createMessagesToChatStream } from '../translate/messages-to-chat-stream.js';
import type { GatewayResponse } from '../types.js';
import { upstreamSignal } from './call-upstream.js';
import { sendOrReplay } from '../cache/cached-send.js';
import { requestTimeoutOf } from '../signals/request-deadline.js';
import { fanOutChat } from './fan-out-chat.js';
import { planChatCall } from './plan-chat-call.js';
import { guardRequest, requestGuards } from './guard-request.js';
import { guardAnswer, guardStream } from './guard-answer.js';
import { hasOutputGuards } from '../guards/answer-slots.js';
import { createUsageHidingTransform } from './hide-stream-usage.js';
import { jsonResponse, readSuccessJson, relayStream, relayUnchanged } from './relay-response.js';

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
  const route = ctx.route;
  if (!route) throw new TypeError('handleChatCompletions needs ctx.route');
  const guards = requestGuards(ctx, runtime);
  await guardRequest(ctx, 'chat', guards);
  const body = ctx.body as ChatCompletionRequest;
  let plans = route.targets.map((target) => planChatCall(ctx, runtime, body, target));
  const translatedFirst = plans[0]?.translated === true;
  // Chat upstreams answer `n` choices in one call, messages ones are fanned out: a fallback of the
  // other wire format could not keep the primary's promise of n choices, so it is not tried.
  if ((body.n ?? 1) > 1) plans = plans.filter((plan) => plan.translated === translatedFirst);
  const n = translatedFirst ? checkChoices(body, runtime) : 1;
  if (n > 1) {
    // Several fanned-out calls make one answer: nothing a single entry could give back.
    if (runtime.cache) ctx.cache = { result: 'bypass' };
    const fanned = await fanOutChat(ctx, runtime, plans, n);
    if (!hasOutputGuards(guards)) return fanned;
    if (fanned.type === 'json') await guardAnswer(ctx, guards, 'chat', fanned.body as Record<string, unknown>);
    return guardStream(ctx, guards, 'chat', fanned);
  }

  const sent = await sendOrReplay(ctx, runtime, plans, upstreamSignal(ctx, body.stream === true), requestTimeoutOf(runtime.options));
  const plan = sent.plan;
  const guardsOutput = hasOutputGuards(guards);
  if (!plan.translated) {
    if (!plan.stream && guardsOutput) {
      // The guards rewrite the parsed answer in place: a cache fill has already written its own text, and a hit parses a fresh one.
      const answer = (await readSuccessJson(ctx, runtime, sent)) as Record<string, unknown>;
      await guardAnswer(ctx, guards, 'chat', answer);
      return jsonResponse(sent, answer);
    }
    if (plan.stream && plan.hideUsage) {
      return guardStream(ctx, guards, 'chat', await relayStream(ctx, runtime, sent, { format: 'chat', transform: createUsageHidingTransform() }));
    }
    const relayed = await relayUnchanged(ctx, runtime, sent, 'chat');
    return guardsOutput ? guardStream(ctx, guards, 'chat', relayed) : relayed;
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
    return guardStream(ctx, guards, 'chat', await relayStream(ctx, runtime, sent, { format: 'chat', transform }));
  }
  const json = (await readSuccessJson(ctx, runtime, sent)) as MessagesResponse;
  const answer = messagesToChatResponse(json, {
    model: body.model,
    id,
    created,
    ...(plan.jsonPrefill !== undefined ? { jsonPrefill: plan.jsonPrefill } : {}),
  });
  if (guardsOutput) await guardAnswer(ctx, guards, 'chat', answer as unknown as Record<string, unknown>);
  return jsonResponse(sent, answer);
}
