import { describe, expect, it } from 'vitest';
import { chatCompletionChunkSchema } from '../../../src/schemas/index.js';
import { classifyUpstreamEvent, errorFromUpstreamEvent } from '../../../src/sse/classify-upstream-event.js';
import { parseSse } from '../../../src/sse/parse-sse.js';
import { toChatSseResponse } from '../../../src/upstreams/gemini/gemini-chat-answer.js';
import { geminiToChatResponse } from '../../../src/upstreams/gemini/gemini-to-chat-response.js';
import { GeminiToChatStream } from '../../../src/upstreams/gemini/gemini-to-chat-stream.js';
import type { GeminiGenerateContentResponse } from '../../../src/upstreams/gemini/gemini-types.js';
import { readToolCallId } from '../../../src/upstreams/gemini/thought-signature-carrier.js';
import { readUpstreamError } from '../../../src/upstreams/read-upstream-error.js';
import type { UpstreamResponse } from '../../../src/upstreams/upstream.js';
import { type GeminiStreamFixture, geminiChunks, geminiJson, geminiSse } from '../../helpers/gemini-fixtures.js';
import { splitRandomly, toAsyncBody } from '../../helpers/split-randomly.js';

const seal = (signature: string): string => `sealed(${signature})`;
const OPTIONS = { model: 'gem', upstream: 'gem', created: 1700000000, includeUsage: true, sealSignature: seal };

function upstream(chunks: Iterable<Uint8Array>): UpstreamResponse {
  return { status: 200, headers: { 'content-type': 'text/event-stream', 'x-goog-trace': 't' }, body: toAsyncBody(chunks) };
}

async function readAll(body: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of body) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
}

/** The chat events of a translated stream: chunks (parsed and checked against the chat schema), `[DONE]`, or errors. */
async function chatEvents(sse: string): Promise<Array<Record<string, unknown> | '[DONE]'>> {
  const out: Array<Record<string, unknown> | '[DONE]'> = [];
  for await (const event of parseSse(toAsyncBody([Buffer.from(sse)]))) {
    if (event.data === '[DONE]') {
      out.push('[DONE]');
      continue;
    }
    const json = JSON.parse(event.data) as Record<string, unknown>;
    if (!('error' in json)) expect(chatCompletionChunkSchema.safeParse(json).success, event.data).toBe(true);
    out.push(json);
  }
  return out;
}

async function translate(name: GeminiStreamFixture, chunks?: Iterable<Uint8Array>, options = OPTIONS): Promise<UpstreamResponse> {
  return toChatSseResponse(upstream(chunks ?? [Buffer.from(geminiSse(name))]), options);
}

type Chunk = { choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }>; usage?: unknown };
const deltas = (events: Array<Record<string, unknown> | '[DONE]'>) =>
  events.filter((event): event is Record<string, unknown> => event !== '[DONE]' && 'choices' in event).flatMap((event) => (event as unknown as Chunk).choices);

describe('Gemini stream → chat chunks', () => {
  it('streams thoughts as reasoning_content and text as content, then finish, usage and [DONE]', async () => {
    const response = await translate('stream-text-thoughts');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream');
    const events = await chatEvents(await readAll(response.body));
    expect(events.at(-1)).toBe('[DONE]');
    const choices = deltas(events);
    expect(choices[0]!.delta).toEqual({ role: 'assistant', content: null, reasoning_content: '**Weighing the café question**\n\nThe user asks about 日本 and wants a short answer.', refusal: null });
    expect(choices.map((choice) => choice.delta.content ?? '').join('')).toBe('Café culture in 日本 is quiet and precise ☕️🍰.');
    expect(choices.filter((choice) => choice.finish_reason !== null).map((choice) => choice.finish_reason)).toEqual(['stop']);
    const usageChunk = events.at(-2) as Chunk;
    expect(usageChunk.choices).toEqual([]);
    // The last chunk's usage: thoughts count as output and reasoning.
    expect(usageChunk.usage).toEqual({
      prompt_tokens: 1210,
      completion_tokens: 38 + 154,
      total_tokens: 1402,
      prompt_tokens_details: { cached_tokens: 1024 },
      completion_tokens_details: { reasoning_tokens: 154 },
    });
    const ids = new Set(events.filter((event) => event !== '[DONE]').map((event) => (event as { id: string }).id));
    expect([...ids]).toEqual(['chatcmpl-mZ1xaPrAEoGz1MkP0uKx8Ac']);
  });

  it('gives the same output however the bytes are split: at every byte boundary, and at random', async () => {
    const sse = Buffer.from(geminiSse('stream-text-thoughts'));
    const whole = await readAll((await translate('stream-text-thoughts', [sse])).body);
    for (let cut = 1; cut < sse.length; cut++) {
      const split = await readAll((await translate('stream-text-thoughts', [sse.subarray(0, cut), sse.subarray(cut)])).body);
      if (split !== whole) expect.fail(`differs when cut at byte ${cut}`);
    }
    for (const seed of [1, 2, 3, 4, 5]) {
      expect(await readAll((await translate('stream-text-thoughts', splitRandomly(sse, { seed, maxChunkSize: 7 }))).body)).toBe(whole);
    }
  });

  it('sends parallel calls whole, with the ids of the whole answer and the signature on the first', async () => {
    const events = await chatEvents(await readAll((await translate('stream-parallel-calls')).body));
    const calls = deltas(events).flatMap((choice) => (choice.delta.tool_calls as Array<Record<string, unknown>> | undefined) ?? []);
    const json = geminiToChatResponse(geminiJson('answer-parallel-calls') as GeminiGenerateContentResponse, { model: 'gem', sealSignature: seal });
    expect(calls).toEqual(
      json.choices[0]!.message.tool_calls!.map((call, index) => ({ index, ...call })),
    );
    expect(readToolCallId(calls[0]!.id as string).signatureSeal).toMatch(/^sealed\(CiQB/);
    expect(readToolCallId(calls[1]!.id as string)).toEqual({});
    expect(deltas(events).at(-1)!.finish_reason).toBe('tool_calls');
    expect(events.at(-1)).toBe('[DONE]');
  });

  it('finishes a SAFETY stop as content_filter after the partial text', async () => {
    const choices = deltas(await chatEvents(await readAll((await translate('stream-safety')).body)));
    expect(choices.map((choice) => choice.delta.content ?? '').join('')).toBe('Here is how the story begins: the night was');
    expect(choices.at(-1)!.finish_reason).toBe('content_filter');
  });

  it('answers a blocked prompt as an HTTP 400 content_filter before any byte of stream', async () => {
    const response = await translate('stream-blocked-prompt');
    expect(response.status).toBe(400);
    const error = await readUpstreamError(response, 'gem');
    expect(error).toMatchObject({ status: 400, chatCode: 'content_filter' });
    expect(error.message).toContain('PROHIBITED_CONTENT');
  });

  it('answers an error as the first event as an HTTP error of its code (retried like any 5xx)', async () => {
    const response = await toChatSseResponse(upstream([Buffer.from(`data: ${JSON.stringify(geminiJson('error-overloaded'))}\r\n\r\n`)]), OPTIONS);
    expect(response.status).toBe(503);
    expect((await readUpstreamError(response, 'gem')).message).toBe('The model is overloaded. Please try again later.');
  });

  it('ends a stream that fails midway with an error event the relay reads as one, never a clean finish', async () => {
    const events = await chatEvents(await readAll((await translate('stream-mid-error')).body));
    expect(events).not.toContain('[DONE]');
    const last = events.at(-1) as { error: Record<string, unknown> };
    expect(last.error).toMatchObject({ type: 'server_error', code: 'internal', message: expect.stringContaining('An internal error has occurred') });
    const event = { data: JSON.stringify(last) };
    expect(classifyUpstreamEvent(event, 'chat')).toBe('error');
    expect(errorFromUpstreamEvent(event, 'chat').message).toContain('An internal error has occurred');
    expect(deltas(events).some((choice) => choice.finish_reason !== null)).toBe(false);
  });

  it('ends a stream cut before its finish with an error, and an empty one with a 502', async () => {
    const first = geminiChunks('stream-safety').slice(0, 1);
    const cut = await readAll((await toChatSseResponse(upstream([Buffer.from(`data: ${JSON.stringify(first[0])}\r\n\r\n`)]), OPTIONS)).body);
    const events = await chatEvents(cut);
    expect(events).not.toContain('[DONE]');
    expect((events.at(-1) as { error: { message: string } }).error.message).toContain('before the answer finished');
    expect((await toChatSseResponse(upstream([]), OPTIONS)).status).toBe(502);
  });

  it('sends usage only when asked, and no usage field on the chunks then', async () => {
    const events = await chatEvents(await readAll((await translate('stream-text-thoughts', undefined, { ...OPTIONS, includeUsage: false })).body));
    expect(events.filter((event) => event !== '[DONE]').every((event) => !('usage' in event))).toBe(true);
    expect(events.filter((event) => event !== '[DONE]' && (event as Chunk).choices.length === 0)).toEqual([]);
  });
});

describe('GeminiToChatStream', () => {
  it('turns a blocked prompt pushed mid-way into an error event with code content_filter', () => {
    const stream = new GeminiToChatStream({ model: 'gem', includeUsage: false });
    const [event] = stream.push(geminiChunks('stream-blocked-prompt')[0]);
    expect(JSON.parse(event!.slice('data: '.length))).toMatchObject({ error: { code: 'content_filter', type: 'invalid_request_error' } });
    expect(stream.closed).toBe(true);
    expect(stream.end()).toEqual([]);
  });

  it('starts an answer with nothing in it with the role and an empty text on its finish chunk', () => {
    const stream = new GeminiToChatStream({ model: 'gem', includeUsage: false, created: 1 });
    const [event] = stream.push({ candidates: [{ content: { role: 'model' }, finishReason: 'MAX_TOKENS' }], responseId: 'r' });
    expect(JSON.parse(event!.slice('data: '.length))).toEqual({
      id: 'chatcmpl-r',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gem',
      choices: [{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: 'length' }],
    });
  });

  it('ends with an error on a broken function call, and on a payload that is not an object', () => {
    const broken = new GeminiToChatStream({ model: 'gem', includeUsage: false });
    const out = broken.push(geminiJson('answer-malformed-call'));
    expect(out.at(-1)).toContain('MALFORMED_FUNCTION_CALL');
    expect(broken.closed).toBe(true);
    const odd = new GeminiToChatStream({ model: 'gem', includeUsage: false });
    expect(odd.push(undefined)[0]).toContain('not a JSON object');
  });
});
