/**
 * `geminiUpstream` behind the gateway, over real HTTP (the plain node
 * handler and Express), against the Gemini stub, with the official `openai`
 * client on /v1/chat/completions: text streamed and not, thoughts and usage
 * (thought tokens in the output count), parallel tool calls over two turns
 * with the thought signature restored from the tool-call id (the stub, like
 * Gemini 3, refuses a turn without it), signatures bound to the caller, a
 * blocked prompt, a SAFETY finish, an error in the middle of a stream, and
 * Google's 429 / 503 failed over to a second target.
 */
import { createGateway, geminiUpstream, type UsageRecord } from 'modelgate';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failure, openAIClient } from '../helpers/e2e-fixtures.js';
import { geminiChunks, geminiJson } from '../helpers/gemini-fixtures.js';
import { type GeminiStub, SKIP_SIGNATURE, startGeminiStub } from '../helpers/gemini-stub.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const GOOGLE_KEY = 'AIzaSy-gateway-key-0123456789';
const ALICE = 'sk-alice-0123456789abcdef';
const BOB = 'sk-bob-0123456789abcdefgh';
const AUTH = { keys: [{ key: ALICE, id: 'alice' }, { key: BOB, id: 'bob' }] };
/** A Gemini 3 model: the stub checks its thought signatures. */
const PRO = 'gemini-3-pro-preview';
const FLASH = 'gemini-2.5-flash';
/** The signature the parallel-calls fixture puts on its first call. */
const PARALLEL_SIGNATURE = (geminiJson('answer-parallel-calls').candidates as { content: { parts: { thoughtSignature?: string }[] } }[])[0]!.content.parts[1]!.thoughtSignature!;
const WEATHER = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] } },
};

type Json = Record<string, unknown>;

/** The `contents` of the stub's last generate request. */
function lastContents(stub: GeminiStub): Json[] {
  return stub.requests.at(-1)!.json!.contents as Json[];
}

describe.each(['node', 'express5'] as const)('Gemini on chat completions (%s)', (mount) => {
  let stub: GeminiStub;
  let app: StartedApp;
  let alice: OpenAI;
  let bob: OpenAI;
  const usage: UsageRecord[] = [];

  beforeAll(async () => {
    stub = await startGeminiStub({ keys: [GOOGLE_KEY] });
    const gemini = geminiUpstream({ apiKey: GOOGLE_KEY, baseURL: stub.baseURL, name: 'gemini' });
    const second = geminiUpstream({ apiKey: GOOGLE_KEY, baseURL: stub.baseURL, name: 'gemini-second' });
    app = await startApp(mount, createGateway({
      auth: AUTH,
      routes: [
        { match: 'failing-over', upstream: gemini, model: FLASH, fallbacks: [{ upstream: second, model: FLASH }], retries: 0 },
        { match: 'gemini-*', upstream: gemini },
      ],
      onUsage: (record) => usage.push(record),
    }));
    alice = openAIClient(app.url, ALICE);
    bob = openAIClient(app.url, BOB);
  });
  afterAll(async () => {
    await app.close();
    await stub.close();
  });
  beforeEach(() => {
    stub.requests.length = 0;
    stub.script.length = 0;
    usage.length = 0;
  });

  it('answers text with its thoughts, and counts thought tokens as output', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-text-thoughts') });
    const completion = await alice.chat.completions.create({ model: FLASH, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Cafés in Japan?' }] });
    expect(stub.requests[0]!.url).toBe(`/v1beta/models/${FLASH}:generateContent`);
    expect(stub.requests[0]!.headers['x-goog-api-key']).toBe(GOOGLE_KEY);
    expect(stub.requests[0]!.json).toMatchObject({ systemInstruction: { parts: [{ text: 'Be brief.' }] }, contents: [{ role: 'user', parts: [{ text: 'Cafés in Japan?' }] }] });
    const message = completion.choices[0]!.message as typeof completion.choices[0]['message'] & { reasoning_content?: string };
    expect(message.content).toBe('Café culture in 日本 is quiet and precise ☕️🍰.');
    expect(message.reasoning_content).toContain('Weighing the café question');
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    // The fixture's last usage: 1210 prompt (1024 cached), 38 candidate and 154 thought tokens.
    expect(completion.usage).toMatchObject({ prompt_tokens: 1210, completion_tokens: 192, total_tokens: 1402 });
    expect(completion.usage?.prompt_tokens_details?.cached_tokens).toBe(1024);
    expect(completion.usage?.completion_tokens_details?.reasoning_tokens).toBe(154);
    // Usage records count cached tokens apart from the uncached input.
    expect(usage[0]).toMatchObject({ inputTokens: 1210 - 1024, cacheReadInputTokens: 1024, outputTokens: 192 });
  });

  it('streams text, then the usage chunk', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-text-thoughts') });
    const stream = await alice.chat.completions.create({ model: FLASH, messages: [{ role: 'user', content: 'Cafés?' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let finish: string | null | undefined;
    let last: OpenAI.ChatCompletionChunk | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish ??= chunk.choices[0]?.finish_reason;
      last = chunk;
    }
    expect(stub.requests[0]!.url).toBe(`/v1beta/models/${FLASH}:streamGenerateContent?alt=sse`);
    expect(text).toBe('Café culture in 日本 is quiet and precise ☕️🍰.');
    expect(finish).toBe('stop');
    expect(last?.usage).toMatchObject({ prompt_tokens: 1210, completion_tokens: 192, completion_tokens_details: { reasoning_tokens: 154 } });
  });

  it.each([false, true])('runs parallel tool calls over two turns, the signature restored from the id (streamed: %s)', async (streamed) => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-parallel-calls') });
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris and Tokyo?' }];
    let calls: OpenAI.ChatCompletionMessageFunctionToolCall[];
    if (streamed) {
      const stream = await alice.chat.completions.create({ model: PRO, messages, tools: [WEATHER], stream: true });
      const byIndex = new Map<number, OpenAI.ChatCompletionMessageFunctionToolCall>();
      for await (const chunk of stream) {
        for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
          const call = byIndex.get(delta.index) ?? { id: '', type: 'function', function: { name: '', arguments: '' } };
          call.id += delta.id ?? '';
          call.function.name += delta.function?.name ?? '';
          call.function.arguments += delta.function?.arguments ?? '';
          byIndex.set(delta.index, call);
        }
      }
      calls = [...byIndex.values()];
    } else {
      const completion = await alice.chat.completions.create({ model: PRO, messages, tools: [WEATHER] });
      expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
      calls = completion.choices[0]!.message.tool_calls as OpenAI.ChatCompletionMessageFunctionToolCall[];
    }
    expect(calls.map((call) => JSON.parse(call.function.arguments) as unknown)).toEqual([{ city: 'Paris', unit: 'celsius' }, { city: 'Tokyo', unit: 'celsius' }]);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
    for (const call of calls) expect(call.id).toMatch(/^call_/);
    // The signature is sealed: the client never reads it.
    expect(calls.some((call) => call.id.includes(PARALLEL_SIGNATURE))).toBe(false);

    messages.push({ role: 'assistant', content: null, tool_calls: calls }, ...calls.map((call, i) => ({ role: 'tool' as const, tool_call_id: call.id, content: i === 0 ? 'Rain, 12°C' : 'Sun, 24°C' })));
    const second = await alice.chat.completions.create({ model: PRO, messages, tools: [WEATHER] });
    expect(second.choices[0]!.message.content).toBe('Gemini says: hello');
    const contents = lastContents(stub);
    expect(contents[1]).toEqual({
      role: 'model',
      parts: [
        { functionCall: { name: 'get_weather', args: { city: 'Paris', unit: 'celsius' } }, thoughtSignature: PARALLEL_SIGNATURE },
        { functionCall: { name: 'get_weather', args: { city: 'Tokyo', unit: 'celsius' } } },
      ],
    });
    expect(contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'get_weather', response: { output: 'Rain, 12°C' } } },
        { functionResponse: { name: 'get_weather', response: { output: 'Sun, 24°C' } } },
      ],
    });
  });

  it("does not restore a signature sealed for another caller: Bob sending Alice's tool call gets a warning", async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-parallel-calls') });
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris and Tokyo?' }];
    const first = await alice.chat.completions.create({ model: PRO, messages, tools: [WEATHER] });
    const calls = first.choices[0]!.message.tool_calls!;
    messages.push({ role: 'assistant', content: null, tool_calls: calls }, ...calls.map((call) => ({ role: 'tool' as const, tool_call_id: call.id, content: 'Fog' })));
    const { data, response } = await bob.chat.completions.create({ model: PRO, messages, tools: [WEATHER] }).withResponse();
    expect(data.choices[0]!.message.content).toBe('Gemini says: hello');
    const parts = lastContents(stub)[1]!.parts as Json[];
    expect(parts[0]!.thoughtSignature).toBe(SKIP_SIGNATURE);
    expect(JSON.stringify(lastContents(stub))).not.toContain(PARALLEL_SIGNATURE);
    expect(response.headers.get('x-modelgate-warnings')).toMatch(/signature/i);
  });

  it.each([false, true])('answers a blocked prompt with a 400 content_filter, never an empty success (streamed: %s)', async (stream) => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-blocked-prompt') });
    const error = await failure(() => alice.chat.completions.create({ model: FLASH, messages: [{ role: 'user', content: 'Something blocked' }], stream }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('content_filter');
    expect((error as Error).message).toMatch(/PROHIBITED_CONTENT/);
  });

  it('ends a SAFETY finish with content_filter after the partial text', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-safety') });
    const completion = await alice.chat.completions.create({ model: FLASH, messages: [{ role: 'user', content: 'A story' }] });
    expect(completion.choices[0]!.message.content).toBe('Here is how the story begins: the night was');
    expect(completion.choices[0]!.finish_reason).toBe('content_filter');
  });

  it('ends a stream with an error event when Google sends its error mid-stream', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-mid-error') });
    const stream = await alice.chat.completions.create({ model: FLASH, messages: [{ role: 'user', content: 'Hi' }], stream: true });
    let text = '';
    const error = await failure(async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    });
    expect(text).toBe('The first part of the answer');
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toMatch(/internal error/i);
  });

  it.each([
    ['429', geminiJson('error-rate-limited')],
    ['503', geminiJson('error-overloaded')],
  ])("fails over Google's %s to the route's second target", async (_status, body) => {
    const error = (body as { error: { code: number; status: string; message: string } }).error;
    stub.script.push({ kind: 'google', status: error.code, googleStatus: error.status, message: error.message }, { kind: 'sse', chunks: geminiChunks('stream-text-thoughts') });
    const completion = await alice.chat.completions.create({ model: 'failing-over', messages: [{ role: 'user', content: 'Hi' }] });
    expect(completion.choices[0]!.message.content).toBe('Café culture in 日本 is quiet and precise ☕️🍰.');
    expect(stub.requests).toHaveLength(2);
    expect(usage[0]?.upstream).toBe('gemini-second');
  });

  it("relays Google's 400 without failing over", async () => {
    stub.script.push({ kind: 'google', status: 400, googleStatus: 'INVALID_ARGUMENT', message: 'Request contains an invalid argument.' });
    const error = await failure(() => alice.chat.completions.create({ model: 'failing-over', messages: [{ role: 'user', content: 'Hi' }] }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain('Request contains an invalid argument.');
    expect(stub.requests).toHaveLength(1);
  });
});
