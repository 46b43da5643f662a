/**
 * `n > 1` on a model served by a messages upstream: the messages format has
 * one answer per call, so the gateway makes `n` calls and merges them into
 * one chat response (choices 0..n-1) or one chat stream (chunks of all
 * choices interleaved as they arrive, one `[DONE]` at the end).
 *
 * Each upstream call reports its own usage record.
 *
 * @internal
 */
import { randomUUID } from 'node:crypto';
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import type { ChatCompletion, ChatCompletionRequest, ChatUsage, MessagesResponse } from '../schemas/index.js';
import { CHAT_DONE, encodeChatChunk } from '../sse/format-sse.js';
import { createSseHeaders } from '../sse/sse-headers.js';
import { messagesToChatResponse } from '../translate/messages-to-chat-response.js';
import { createMessagesToChatStream } from '../translate/messages-to-chat-stream.js';
import type { GatewayResponse, JsonResponse, SseResponse } from '../types.js';
import { discardBody } from '../upstreams/read-body.js';
import { type SentCall, sendPlans, upstreamSignal } from './call-upstream.js';
import { requestTimeoutOf } from '../signals/request-deadline.js';
import type { ChatPlan } from './plan-chat-call.js';
import { jsonResponse, readSuccessJson, relayStream } from './relay-response.js';

/** Releases a call whose answer will not be read: its body, its deadline (a timer, a listener), its attempt span (not a success). */
function releaseUnused(sent: SentCall<ChatPlan>): void {
  sent.deadline.release();
  sent.observation?.failed();
  void discardBody(sent.response.body);
}

/** Sends `n` calls; if any fails to start, the others are released and the first failure thrown. */
async function sendAll(ctx: GatewayContext, plans: ChatPlan[], n: number, stream: boolean, timeoutMs: number): Promise<SentCall<ChatPlan>[]> {
  const settled = await Promise.allSettled(Array.from({ length: n }, () => sendPlans(ctx, plans, upstreamSignal(ctx, stream), timeoutMs)));
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) {
    for (const result of settled) if (result.status === 'fulfilled') releaseUnused(result.value);
    throw failed.reason;
  }
  return settled.map((result) => (result as PromiseFulfilledResult<SentCall<ChatPlan>>).value);
}

function sumUsage(usages: ChatUsage[]): ChatUsage {
  const total = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  for (const usage of usages) {
    total.prompt_tokens += usage.prompt_tokens;
    total.completion_tokens += usage.completion_tokens;
    total.total_tokens += usage.total_tokens;
  }
  return total;
}

async function fanOutJson(ctx: GatewayContext, runtime: GatewayRuntime, sents: SentCall<ChatPlan>[], body: ChatCompletionRequest): Promise<JsonResponse> {
  const id = `chatcmpl-${randomUUID().replace(/-/g, '')}`;
  const created = Math.floor(Date.now() / 1000);
  // Read every body (even after a failure) so no socket is left half-read.
  const results = await Promise.allSettled(sents.map((sent) => readSuccessJson(ctx, runtime, sent)));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  const completions: ChatCompletion[] = results.map((result, index) => {
    const sent = sents[index]!;
    return messagesToChatResponse((result as PromiseFulfilledResult<unknown>).value as MessagesResponse, {
      model: body.model,
      id,
      created,
      ...(sent.plan.jsonPrefill !== undefined ? { jsonPrefill: sent.plan.jsonPrefill } : {}),
    });
  });
  const merged: ChatCompletion = {
    ...completions[0]!,
    choices: completions.map((completion, index) => ({ ...completion.choices[0]!, index })),
    usage: sumUsage(completions.map((completion) => completion.usage).filter((usage): usage is ChatUsage => usage !== undefined)),
  };
  return jsonResponse(sents[0]!, merged);
}

/**
 * The merged body. `return()` goes to the relays first: an async generator
 * never started ignores it (its `finally` never runs), and one waiting on a
 * silent relay would handle it only once that relay speaks, so a body the
 * adapter drops (the client left, the head could not be written) would
 * leave the relays, their upstreams and their usage reports open.
 */
function mergeStreams(streams: AsyncIterable<Uint8Array>[], tail: () => string[]): AsyncIterableIterator<Uint8Array> {
  const merged = mergeGenerator(streams, tail);
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next() {
      return merged.next();
    },
    async return() {
      await Promise.allSettled(streams.map((stream) => stream[Symbol.asyncIterator]().return?.()));
      return merged.return(undefined);
    },
  };
}

async function* mergeGenerator(streams: AsyncIterable<Uint8Array>[], tail: () => string[]): AsyncGenerator<Uint8Array, void, undefined> {
  const iterators = streams.map((stream) => stream[Symbol.asyncIterator]());
  const pending = new Map<number, Promise<{ index: number; result: IteratorResult<Uint8Array> }>>();
  const pull = (index: number) => pending.set(index, iterators[index]!.next().then((result) => ({ index, result })));
  iterators.forEach((_, index) => pull(index));
  let finished = false;
  try {
    while (pending.size > 0) {
      const { index, result } = await Promise.race(pending.values());
      if (result.done) {
        pending.delete(index);
        continue;
      }
      pull(index);
      yield result.value;
    }
    finished = true;
    for (const text of tail()) yield Buffer.from(text);
  } finally {
    if (!finished) await Promise.allSettled(iterators.map((iterator) => iterator.return?.()));
  }
}

async function fanOutStream(ctx: GatewayContext, runtime: GatewayRuntime, sents: SentCall<ChatPlan>[], body: ChatCompletionRequest): Promise<SseResponse> {
  const id = `chatcmpl-${randomUUID().replace(/-/g, '')}`;
  const created = Math.floor(Date.now() / 1000);
  const usages: ChatUsage[] = [];
  const streams: AsyncIterable<Uint8Array>[] = [];
  for (const [index, sent] of sents.entries()) {
    const transform = createMessagesToChatStream({
      model: body.model,
      id,
      created,
      index,
      includeUsage: false,
      emitDone: false,
      onUsage: (usage) => usages.push(usage),
      ...(sent.plan.jsonPrefill !== undefined ? { jsonPrefill: sent.plan.jsonPrefill } : {}),
    });
    try {
      streams.push((await relayStream(ctx, runtime, sent, { format: 'chat', transform })).body);
    } catch (error) {
      // One call failed before streaming: release the relays already built and the bodies not yet read.
      await Promise.allSettled(streams.map((stream) => stream[Symbol.asyncIterator]().return?.()));
      for (const rest of sents.slice(index + 1)) releaseUnused(rest);
      throw error;
    }
  }
  const tail = (): string[] => {
    const out: string[] = [];
    if (body.stream_options?.include_usage === true) {
      out.push(encodeChatChunk({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage: sumUsage(usages) }));
    }
    out.push(CHAT_DONE);
    return out;
  };
  return { type: 'sse', status: 200, headers: createSseHeaders(), body: mergeStreams(streams, tail) };
}

export async function fanOutChat(ctx: GatewayContext, runtime: GatewayRuntime, plans: ChatPlan[], n: number): Promise<GatewayResponse> {
  const body = ctx.body as ChatCompletionRequest;
  const stream = body.stream === true;
  const sents = await sendAll(ctx, plans, n, stream, requestTimeoutOf(runtime.options));
  return stream ? fanOutStream(ctx, runtime, sents, body) : fanOutJson(ctx, runtime, sents, body);
}
