/**
 * A cache hit gives back the answer the upstream gave, over real HTTP
 * (node:http and Express): parallel tool calls (ids, names, arguments),
 * reasoning (chat `reasoning_content`; messages thinking with its signature
 * and a redacted block) and the finish reason, in every caller format a
 * route serves, streamed or not, whichever mode filled the entry. The
 * expected values are the fixed answers of the upstreams, never what the
 * gateway returned first.
 */
import { createOpenAI } from '@ai-sdk/openai';
import Anthropic from '@anthropic-ai/sdk';
import { generateText, tool } from 'ai';
import { memoryResponseCache } from 'modelgate';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CHAT_REASONING,
  fixedAnswerUpstream,
  type FixedAnswerUpstream,
  MESSAGES_TEXT,
  REDACTED_DATA,
  SIGNATURE,
  THINKING,
  TOOL_CALLS,
  USAGE,
} from '../helpers/fixed-answer-upstream.js';
import { type Mount, type StartedApp, startApp } from '../helpers/start-app.js';

const KEY = 'sk-fidelity-caller-0123456789';
const CHAT_MODEL = 'gpt-4o';
const MESSAGES_MODEL = 'vendora-sonnet-4-6';
const PROMPT = 'What is the weather in Paris and in Oslo?';

let started: StartedApp[] = [];
afterEach(async () => {
  await Promise.all(started.map((app) => app.close()));
  started = [];
});

interface Setup {
  app: StartedApp;
  chat: FixedAnswerUpstream;
  messages: FixedAnswerUpstream;
}

async function setup(mount: Mount): Promise<Setup> {
  const chat = fixedAnswerUpstream('chat');
  const messages = fixedAnswerUpstream('messages');
  const app = await startApp(mount, {
    auth: { keys: [{ key: KEY, id: 'fidelity' }] },
    routes: [
      { match: CHAT_MODEL, upstream: chat, retries: 0 },
      { match: MESSAGES_MODEL, upstream: messages, retries: 0 },
    ],
    cache: { store: memoryResponseCache() },
  });
  started.push(app);
  return { app, chat, messages };
}

/** What every caller format is checked on: tool calls, reasoning and how the answer ended. */
interface AnswerView {
  toolCalls: Array<{ id: string; name: string; input: unknown }>;
  reasoning: string;
  finish: string | null | undefined;
}

const expectedToolCalls = TOOL_CALLS.map((call) => ({ id: call.id, name: call.name, input: call.input }));
const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: { type: 'object' as const, properties: { city: { type: 'string' }, unit: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] },
};

interface Served {
  view: AnswerView;
  cache: string | null;
  age: string | null;
}

type ChatMessageWithExtensions = OpenAI.Chat.Completions.ChatCompletionMessage & { reasoning_content?: string; thinking_blocks?: unknown[] };
type ChatDeltaWithExtensions = OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta & { reasoning_content?: string; thinking_blocks?: unknown[] };

/** A chat caller's answer, with the `thinking_blocks` extension it received. */
async function askChat(app: StartedApp, model: string, stream: boolean): Promise<Served & { content: string | null; thinkingBlocks: unknown[] }> {
  const client = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY, maxRetries: 0 });
  const body = { model, messages: [{ role: 'user' as const, content: PROMPT }], tools: [{ type: 'function' as const, function: WEATHER_TOOL }] };
  if (!stream) {
    const { data, response } = await client.chat.completions.create(body).withResponse();
    const choice = data.choices[0]!;
    const message = choice.message as ChatMessageWithExtensions;
    return {
      view: {
        toolCalls: (message.tool_calls ?? []).map((call) => (call.type === 'function' ? { id: call.id, name: call.function.name, input: JSON.parse(call.function.arguments) as unknown } : { id: call.id, name: '', input: null })),
        reasoning: message.reasoning_content ?? '',
        finish: choice.finish_reason,
      },
      content: message.content,
      thinkingBlocks: message.thinking_blocks ?? [],
      cache: response.headers.get('x-modelgate-cache'),
      age: response.headers.get('age'),
    };
  }
  const { data, response } = await client.chat.completions.create({ ...body, stream: true }).withResponse();
  const calls: Array<{ id: string; name: string; args: string }> = [];
  let reasoning = '';
  let content: string | null = null;
  const thinkingBlocks: unknown[] = [];
  let finish: string | null | undefined;
  for await (const chunk of data) {
    const choice = chunk.choices[0];
    if (!choice) continue;
    const delta = choice.delta as ChatDeltaWithExtensions;
    reasoning += delta.reasoning_content ?? '';
    if (typeof delta.content === 'string') content = (content ?? '') + delta.content;
    thinkingBlocks.push(...(delta.thinking_blocks ?? []));
    for (const call of delta.tool_calls ?? []) {
      const slot = (calls[call.index] ??= { id: '', name: '', args: '' });
      slot.id += call.id ?? '';
      slot.name += call.function?.name ?? '';
      slot.args += call.function?.arguments ?? '';
    }
    finish = choice.finish_reason ?? finish;
  }
  return {
    view: { toolCalls: calls.map((call) => ({ id: call.id, name: call.name, input: JSON.parse(call.args) as unknown })), reasoning, finish },
    content: content === '' ? null : content,
    thinkingBlocks,
    cache: response.headers.get('x-modelgate-cache'),
    age: response.headers.get('age'),
  };
}

/** A messages caller's content blocks, reduced to what each block type means. */
function blocksOf(content: readonly Anthropic.ContentBlock[]): unknown[] {
  return content.map((block) => {
    switch (block.type) {
      case 'thinking':
        return { type: block.type, thinking: block.thinking, signature: block.signature };
      case 'redacted_thinking':
        return { type: block.type, data: block.data };
      case 'text':
        return { type: block.type, text: block.text };
      case 'tool_use':
        return { type: block.type, id: block.id, name: block.name, input: block.input };
      default:
        return { type: block.type };
    }
  });
}

async function askMessages(app: StartedApp, stream: boolean): Promise<Served & { blocks: unknown[]; usage: { input: number; output: number } }> {
  const client = new Anthropic({ baseURL: app.url, apiKey: KEY, maxRetries: 0 });
  const body = {
    model: MESSAGES_MODEL,
    max_tokens: 2048,
    messages: [{ role: 'user' as const, content: PROMPT }],
    tools: [{ name: WEATHER_TOOL.name, description: WEATHER_TOOL.description, input_schema: WEATHER_TOOL.parameters }],
  };
  let message: Anthropic.Message;
  let response: Response;
  if (stream) {
    const running = client.messages.stream(body);
    message = await running.finalMessage();
    response = (await running.withResponse()).response;
  } else {
    ({ data: message, response } = await client.messages.create(body).withResponse());
  }
  const reasoning = message.content.map((block) => (block.type === 'thinking' ? block.thinking : '')).join('');
  const toolCalls = message.content.flatMap((block) => (block.type === 'tool_use' ? [{ id: block.id, name: block.name, input: block.input }] : []));
  return {
    view: { toolCalls, reasoning, finish: message.stop_reason },
    blocks: blocksOf(message.content),
    usage: { input: message.usage.input_tokens, output: message.usage.output_tokens },
    cache: response.headers.get('x-modelgate-cache'),
    age: response.headers.get('age'),
  };
}

/** A Responses caller's answer: function calls, reasoning summaries (and whether each is sealed), status. */
async function askResponses(app: StartedApp, model: string, stream: boolean): Promise<Served & { sealed: boolean[]; text: string }> {
  const client = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY, maxRetries: 0 });
  const body = { model, input: PROMPT, store: false, include: ['reasoning.encrypted_content' as const], tools: [{ type: 'function' as const, ...WEATHER_TOOL, strict: false }] };
  let answer: OpenAI.Responses.Response | undefined;
  let response: Response;
  if (stream) {
    const streamed = await client.responses.create({ ...body, stream: true }).withResponse();
    response = streamed.response;
    for await (const event of streamed.data) if (event.type === 'response.completed') answer = event.response;
  } else {
    ({ data: answer, response } = await client.responses.create(body).withResponse());
  }
  const output = answer?.output ?? [];
  const toolCalls = output.flatMap((item) => (item.type === 'function_call' ? [{ id: item.call_id, name: item.name, input: JSON.parse(item.arguments) as unknown }] : []));
  const reasoningItems = output.filter((item): item is OpenAI.Responses.ResponseReasoningItem => item.type === 'reasoning');
  const reasoning = reasoningItems.map((item) => item.summary.map((part) => part.text).join('')).join('');
  let text = '';
  for (const item of output) if (item.type === 'message') for (const part of item.content) if (part.type === 'output_text') text += part.text;
  return {
    view: { toolCalls, reasoning, finish: answer?.status },
    sealed: reasoningItems.map((item) => typeof item.encrypted_content === 'string' && item.encrypted_content.length > 0),
    text,
    cache: response.headers.get('x-modelgate-cache'),
    age: response.headers.get('age'),
  };
}

const MODES = [false, true] as const;
const modeName = (stream: boolean): string => (stream ? 'streamed' : 'non-streamed');

describe.each(['node', 'express5'] as const)('cache replay fidelity on %s', (mount) => {
  describe.each([{ fill: 'non-streamed', fillStreamed: false }, { fill: 'streamed', fillStreamed: true }])('filled by a $fill answer', ({ fillStreamed }) => {
    it('chat caller, chat upstream: tool calls, reasoning_content and finish reason come back in both modes', async () => {
      const { app, chat } = await setup(mount);
      const expected: AnswerView = { toolCalls: expectedToolCalls, reasoning: CHAT_REASONING, finish: 'tool_calls' };
      const first = await askChat(app, CHAT_MODEL, fillStreamed);
      expect(first.cache).toBe('miss');
      expect(first.view).toEqual(expected);
      for (const stream of MODES) {
        const hit = await askChat(app, CHAT_MODEL, stream);
        expect(hit.cache, modeName(stream)).toBe('hit');
        expect(Number(hit.age)).toBeGreaterThanOrEqual(0);
        expect(hit.view, modeName(stream)).toEqual(expected);
        expect(hit.content).toBeNull();
      }
      expect(chat.calls).toBe(1);
    });

    it('messages caller, messages upstream: signed thinking, redacted thinking, text and tool_use blocks come back in both modes', async () => {
      const { app, messages } = await setup(mount);
      const blocks = [
        { type: 'thinking', thinking: THINKING, signature: SIGNATURE },
        { type: 'redacted_thinking', data: REDACTED_DATA },
        { type: 'text', text: MESSAGES_TEXT },
        ...TOOL_CALLS.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.input })),
      ];
      const first = await askMessages(app, fillStreamed);
      expect(first.cache).toBe('miss');
      expect(first.blocks).toEqual(blocks);
      for (const stream of MODES) {
        const hit = await askMessages(app, stream);
        expect(hit.cache, modeName(stream)).toBe('hit');
        expect(hit.blocks, modeName(stream)).toEqual(blocks);
        expect(hit.view.finish).toBe('tool_use');
        // The stored figures are reported to the client.
        expect(hit.usage).toEqual(USAGE);
      }
      expect(messages.calls).toBe(1);
    });

    it('chat caller, messages upstream (translated): tool calls, reasoning and the signed thinking_blocks come back in both modes', async () => {
      const { app, messages } = await setup(mount);
      const expected: AnswerView = { toolCalls: expectedToolCalls, reasoning: THINKING, finish: 'tool_calls' };
      const thinkingBlocks = [{ type: 'thinking', thinking: THINKING, signature: SIGNATURE }, { type: 'redacted_thinking', data: REDACTED_DATA }];
      const first = await askChat(app, MESSAGES_MODEL, fillStreamed);
      expect(first.cache).toBe('miss');
      expect(first.view).toEqual(expected);
      for (const stream of MODES) {
        const hit = await askChat(app, MESSAGES_MODEL, stream);
        expect(hit.cache, modeName(stream)).toBe('hit');
        expect(hit.view, modeName(stream)).toEqual(expected);
        expect(hit.content, modeName(stream)).toBe(MESSAGES_TEXT);
        expect(hit.thinkingBlocks, modeName(stream)).toEqual(thinkingBlocks);
      }
      expect(messages.calls).toBe(1);
    });

    it.each([CHAT_MODEL, MESSAGES_MODEL])('Responses caller on %s: function calls, reasoning and status come back in both modes', async (model) => {
      const { app, chat, messages } = await setup(mount);
      const onMessages = model === MESSAGES_MODEL;
      const expected: AnswerView = { toolCalls: expectedToolCalls, reasoning: onMessages ? THINKING : CHAT_REASONING, finish: 'completed' };
      const first = await askResponses(app, model, fillStreamed);
      expect(first.cache).toBe('miss');
      expect(first.view).toEqual(expected);
      expect(first.sealed).toEqual(onMessages ? [true, true] : [false]);
      for (const stream of MODES) {
        const hit = await askResponses(app, model, stream);
        expect(hit.cache, modeName(stream)).toBe('hit');
        expect(hit.view, modeName(stream)).toEqual(expected);
        expect(hit.text).toBe(onMessages ? MESSAGES_TEXT : '');
        // A messages upstream's signed and redacted blocks each come back sealed (a chat upstream's reasoning has no signature).
        expect(hit.sealed, modeName(stream)).toEqual(onMessages ? [true, true] : [false]);
      }
      expect(onMessages ? messages.calls : chat.calls).toBe(1);
    });
  });
});

describe('cache replay fidelity: clients and follow-up turns', () => {
  it('the AI SDK (Responses) reads the same tool calls and reasoning from a hit as from the miss', async () => {
    const { app, messages } = await setup('node');
    const heads: Array<string | null> = [];
    const seen = createOpenAI({
      baseURL: `${app.url}/v1`,
      apiKey: KEY,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        heads.push(response.headers.get('x-modelgate-cache'));
        return response;
      },
    });
    const results = [];
    for (let round = 0; round < 2; round++) {
      results.push(await generateText({
        model: seen(MESSAGES_MODEL),
        prompt: PROMPT,
        tools: { get_weather: tool({ description: WEATHER_TOOL.description, inputSchema: z.object({ city: z.string(), unit: z.string(), days: z.number().optional() }) }) },
        providerOptions: { openai: { store: false } },
        maxRetries: 0,
      }));
    }
    expect(heads).toEqual(['miss', 'hit']);
    for (const result of results) {
      expect(result.toolCalls.map((call) => ({ id: call.toolCallId, name: call.toolName, input: call.input }))).toEqual(expectedToolCalls);
      expect(result.reasoningText).toBe(THINKING);
      expect(result.finishReason).toBe('tool-calls');
    }
    expect(messages.calls).toBe(1);
  });

  it.each([CHAT_MODEL, MESSAGES_MODEL])('a follow-up turn echoing the cached tool call ids keys consistently on %s (the second is a hit)', async (model) => {
    const { app, chat, messages } = await setup('express5');
    const first = await askChat(app, model, false);
    expect(first.cache).toBe('miss');
    const client = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const assistant: OpenAI.Chat.Completions.ChatCompletionAssistantMessageParam = {
      role: 'assistant',
      content: first.content,
      tool_calls: first.view.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.input) } })),
    };
    const followUp = {
      model,
      tools: [{ type: 'function' as const, function: WEATHER_TOOL }],
      messages: [
        { role: 'user' as const, content: PROMPT },
        assistant,
        { role: 'tool' as const, tool_call_id: TOOL_CALLS[0].id, content: 'Paris: 18 °C, clear.' },
        { role: 'tool' as const, tool_call_id: TOOL_CALLS[1].id, content: 'Oslo: 9 °C, rain.' },
      ],
    };
    const heads: Array<string | null> = [];
    for (let round = 0; round < 2; round++) {
      const { response } = await client.chat.completions.create(followUp).withResponse();
      heads.push(response.headers.get('x-modelgate-cache'));
    }
    expect(heads).toEqual(['miss', 'hit']);
    // The first turn and one follow-up went upstream.
    expect(chat.calls + messages.calls).toBe(2);
    // Another tool result is another request.
    const other = structuredClone(followUp);
    other.messages[3] = { role: 'tool', tool_call_id: TOOL_CALLS[1].id, content: 'Oslo: 10 °C, rain.' };
    const { response } = await client.chat.completions.create(other).withResponse();
    expect(response.headers.get('x-modelgate-cache')).toBe('miss');
  });
});
