/**
 * `geminiUpstream` through every interface the gateway serves, with the
 * clients apps use: the Responses API through the official `openai` client
 * and the AI SDK's `openai(...)`, the Agents SDK with a tool over two
 * turns, and the messages interface through `@anthropic-ai/sdk` (text and
 * a tool turn). The Gemini 3 model's parallel calls need their thought
 * signature back on the next turn (the stub refuses a turn without it), so
 * every two-turn test passes only if the signature survived the client.
 */
import Anthropic from '@anthropic-ai/sdk';
import { createOpenAI } from '@ai-sdk/openai';
import { Agent, OpenAIProvider, Runner, tool as agentTool } from '@openai/agents';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { createGateway, geminiUpstream, memoryResponseStore } from 'modelgate';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropicClient, failure, KEY, openAIClient } from '../helpers/e2e-fixtures.js';
import { geminiChunks, geminiJson } from '../helpers/gemini-fixtures.js';
import { type GeminiStub, startGeminiStub } from '../helpers/gemini-stub.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const GOOGLE_KEY = 'AIzaSy-gateway-key-0123456789';
const PRO = 'gemini-3-pro-preview';
const FLASH = 'gemini-2.5-flash';
const PARALLEL_SIGNATURE = (geminiJson('answer-parallel-calls').candidates as { content: { parts: { thoughtSignature?: string }[] } }[])[0]!.content.parts[1]!.thoughtSignature!;
const TEXT = 'Café culture in 日本 is quiet and precise ☕️🍰.';

type Json = Record<string, unknown>;

let stub: GeminiStub;
let app: StartedApp;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  stub = await startGeminiStub({ keys: [GOOGLE_KEY] });
  app = await startApp('express5', createGateway({
    auth: { keys: [KEY] },
    responseStore: memoryResponseStore(),
    routes: [{ match: 'gemini-*', upstream: geminiUpstream({ apiKey: GOOGLE_KEY, baseURL: stub.baseURL, name: 'gemini' }), serveMessages: true }],
  }));
  openai = openAIClient(app.url);
  anthropic = anthropicClient(app.url);
});
afterAll(async () => {
  await app.close();
  await stub.close();
});
beforeEach(() => {
  stub.requests.length = 0;
  stub.script.length = 0;
});

/** The model turn of function calls the stub received on the last call, and the results that followed it. */
function lastCallTurns(): { calls: Json; results: Json } {
  const contents = stub.requests.at(-1)!.json!.contents as Json[];
  const at = contents.findIndex((content) => (content.parts as Json[]).some((part) => part.functionCall !== undefined));
  return { calls: contents[at]!, results: contents[at + 1]! };
}

function expectSignatureRestored(): void {
  const { calls, results } = lastCallTurns();
  const parts = calls.parts as Json[];
  expect(parts.map((part) => (part.functionCall as Json).args)).toEqual([{ city: 'Paris', unit: 'celsius' }, { city: 'Tokyo', unit: 'celsius' }]);
  expect(parts[0]!.thoughtSignature).toBe(PARALLEL_SIGNATURE);
  expect((results.parts as Json[]).map((part) => (part.functionResponse as Json).name)).toEqual(['get_weather', 'get_weather']);
}

describe('the Responses API (openai client)', () => {
  it('answers text, with thought tokens in the output and reasoning counts', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-text-thoughts') });
    const response = await openai.responses.create({ model: FLASH, input: 'Cafés in Japan?' });
    expect(response.output_text).toBe(TEXT);
    expect(response.usage).toMatchObject({ input_tokens: 1210, output_tokens: 192, output_tokens_details: { reasoning_tokens: 154 }, input_tokens_details: { cached_tokens: 1024 } });
  });

  it('streams text', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-text-thoughts') });
    const stream = openai.responses.stream({ model: FLASH, input: 'Cafés in Japan?' });
    const final = await stream.finalResponse();
    expect(final.output_text).toBe(TEXT);
  });

  it('runs parallel function calls over two turns with the signature in call_id', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-parallel-calls') });
    const tools: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } } }, strict: false }];
    const first = await openai.responses.create({ model: PRO, input: 'Weather in Paris and Tokyo?', tools, store: false });
    const calls = first.output.filter((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call');
    expect(calls).toHaveLength(2);
    const second = await openai.responses.create({
      model: PRO,
      tools,
      store: false,
      input: [{ role: 'user', content: 'Weather in Paris and Tokyo?' }, ...calls, ...calls.map((call) => ({ type: 'function_call_output' as const, call_id: call.call_id, output: 'Mild' }))],
    });
    expect(second.output_text).toBe('Gemini says: hello');
    expectSignatureRestored();
  });

  it('answers a blocked prompt with a 400 content_filter', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-blocked-prompt') });
    const error = await failure(() => openai.responses.create({ model: FLASH, input: 'Something blocked' }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('content_filter');
  });

  it('ends a SAFETY finish as an incomplete response (content_filter)', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-safety') });
    const response = await openai.responses.create({ model: FLASH, input: 'A story' });
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details?.reason).toBe('content_filter');
    expect(response.output_text).toBe('Here is how the story begins: the night was');
  });
});

describe('the AI SDK (openai(model): the Responses API)', () => {
  const model = (id: string) => createOpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY })(id);

  it('runs a tool over two turns (parallel calls, signature restored)', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-parallel-calls') });
    const seen: string[] = [];
    const result = await generateText({
      model: model(PRO),
      prompt: 'Weather in Paris and Tokyo?',
      tools: {
        get_weather: tool({
          description: 'The weather in a city',
          inputSchema: z.object({ city: z.string(), unit: z.string().optional() }),
          execute: async ({ city }) => {
            seen.push(city);
            return `Mild in ${city}`;
          },
        }),
      },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    expect(seen).toEqual(['Paris', 'Tokyo']);
    expect(result.text).toBe('Gemini says: hello');
    expectSignatureRestored();
  });

  it('streams text with streamText', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-text-thoughts') });
    const streamed = streamText({ model: model(FLASH), prompt: 'Cafés?', maxRetries: 0 });
    let text = '';
    for await (const delta of streamed.textStream) text += delta;
    expect(text).toBe(TEXT);
    expect((await streamed.usage).outputTokens).toBe(192);
  });
});

describe('the Agents SDK', () => {
  it('runs an agent with a tool over two turns', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-parallel-calls') });
    const runner = new Runner({ modelProvider: new OpenAIProvider({ apiKey: KEY, baseURL: `${app.url}/v1` }), tracingDisabled: true });
    const weather = agentTool({
      name: 'get_weather',
      description: 'The weather in a city',
      parameters: z.object({ city: z.string(), unit: z.string().nullable() }),
      execute: async ({ city }) => `Windy in ${city}`,
    });
    const agent = new Agent({ name: 'forecaster', instructions: 'Answer about the weather.', model: PRO, tools: [weather] });
    const result = await runner.run(agent, 'Weather in Paris and Tokyo?');
    expect(result.finalOutput).toBe('Gemini says: hello');
    expectSignatureRestored();
  });
});

describe('the messages interface (@anthropic-ai/sdk)', () => {
  it('answers text, streamed and not', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-text-thoughts') }, { kind: 'sse', chunks: geminiChunks('stream-text-thoughts') });
    const message = await anthropic.messages.create({ model: FLASH, max_tokens: 256, messages: [{ role: 'user', content: 'Cafés?' }] });
    expect(message.content.filter((block) => block.type === 'text').map((block) => block.text).join('')).toBe(TEXT);
    expect(message.usage.output_tokens).toBe(192);
    const streamed = await anthropic.messages.stream({ model: FLASH, max_tokens: 256, messages: [{ role: 'user', content: 'Cafés?' }] }).finalMessage();
    expect(streamed.content.filter((block) => block.type === 'text').map((block) => block.text).join('')).toBe(TEXT);
  });

  it('runs a tool turn: tool_use ids carry the signature back', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-parallel-calls') });
    const tools: Anthropic.Tool[] = [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } } } }];
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Paris and Tokyo?' }];
    const first = await anthropic.messages.create({ model: PRO, max_tokens: 256, tools, messages });
    expect(first.stop_reason).toBe('tool_use');
    const uses = first.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
    expect(uses.map((use) => use.input)).toEqual([{ city: 'Paris', unit: 'celsius' }, { city: 'Tokyo', unit: 'celsius' }]);
    messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: uses.map((use) => ({ type: 'tool_result' as const, tool_use_id: use.id, content: 'Calm' })) });
    const second = await anthropic.messages.create({ model: PRO, max_tokens: 256, tools, messages });
    expect(second.content.filter((block) => block.type === 'text').map((block) => block.text).join('')).toBe('Gemini says: hello');
    expectSignatureRestored();
  });

  it('answers a blocked prompt with a 400', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-blocked-prompt') });
    const error = await failure(() => anthropic.messages.create({ model: FLASH, max_tokens: 64, messages: [{ role: 'user', content: 'Something blocked' }] }));
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toMatch(/blocked the prompt/);
  });

  it('ends a SAFETY finish with the refusal stop reason', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-safety') });
    const message = await anthropic.messages.create({ model: FLASH, max_tokens: 64, messages: [{ role: 'user', content: 'A story' }] });
    expect(message.stop_reason).toBe('refusal');
  });
});
