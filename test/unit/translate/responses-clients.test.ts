/**
 * Bodies the real clients send: the AI SDK (`@ai-sdk/openai` Responses
 * model) and the OpenAI Agents SDK are given a conversation with a tool
 * loop and earlier reasoning, their request is captured at `fetch`, then
 * validated and translated like the gateway would.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { Agent, Runner, tool } from '@openai/agents';
import { OpenAIResponsesModel } from '@openai/agents-openai';
import { type ModelMessage, generateText, jsonSchema, tool as aiTool } from 'ai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ReasoningItem,
  chatCompletionRequestSchema,
  parseRequest,
  responsesRequestSchema,
} from '../../../src/schemas/index.js';
import { inputItemsOf, responsesToChatRequest } from '../../../src/translate/responses-to-chat-request.js';
import type { ChatThinkingBlock } from '../../../src/translate/messages-to-chat-response.js';

const BASE_URL = 'http://gateway.test/v1';

/** A `fetch` that records each request body and answers 400, so the client stops after one call. */
function capture(): { bodies: unknown[]; fetch: typeof fetch } {
  const bodies: unknown[] = [];
  const fake = async (_url: unknown, init?: RequestInit): Promise<Response> => {
    bodies.push(JSON.parse(String(init?.body)));
    const error = { error: { message: 'captured', type: 'invalid_request_error', param: null, code: null } };
    return new Response(JSON.stringify(error), { status: 400, headers: { 'content-type': 'application/json' } });
  };
  return { bodies, fetch: fake as typeof fetch };
}

const PLAN: ChatThinkingBlock[] = [{ type: 'thinking', thinking: 'Check the weather tool.', signature: 'sig-plan' }];

/** Restores only what an envelope `enc-1` or the id `rs_68a1` stands for. */
const restoreReasoning = (item: ReasoningItem) =>
  item.encrypted_content === 'enc-1' || item.id === 'rs_68a1' ? PLAN : undefined;

function translate(body: unknown) {
  const parsed = parseRequest(responsesRequestSchema, body);
  const result = responsesToChatRequest(parsed, inputItemsOf(parsed), { restoreReasoning, builtInTools: 'drop' });
  chatCompletionRequestSchema.parse(result.request);
  return result;
}

const weatherCall = { id: 'call_w', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } };

describe('AI SDK (@ai-sdk/openai Responses model)', () => {
  const conversation = (reasoningOptions: Record<string, string>): ModelMessage[] => [
    {
      role: 'user' as const,
      content: [
        { type: 'text' as const, text: 'Weather in Paris? Here is the forecast.' },
        { type: 'file' as const, data: 'JVBERi0xLjQK', mediaType: 'application/pdf', filename: 'forecast.pdf' },
      ],
    },
    {
      role: 'assistant' as const,
      content: [
        { type: 'reasoning' as const, text: 'Check the weather tool.', providerOptions: { openai: reasoningOptions } },
        { type: 'text' as const, text: 'Checking.' },
        { type: 'tool-call' as const, toolCallId: 'call_w', toolName: 'weather', input: { city: 'Paris' } },
      ],
    },
    {
      role: 'tool' as const,
      content: [
        { type: 'tool-result' as const, toolCallId: 'call_w', toolName: 'weather', output: { type: 'json' as const, value: { temperature: 21 } } },
      ],
    },
  ];

  async function send(options: { store: boolean; reasoningOptions: Record<string, string> }): Promise<unknown> {
    const { bodies, fetch } = capture();
    const provider = createOpenAI({ apiKey: 'test-key', baseURL: BASE_URL, fetch });
    await generateText({
      model: provider('gpt-5'),
      maxRetries: 0,
      providerOptions: { openai: { store: options.store } },
      system: 'Be brief.',
      messages: conversation(options.reasoningOptions),
      tools: {
        weather: aiTool({
          description: 'Get the weather',
          inputSchema: jsonSchema({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
        }),
      },
    }).catch(() => undefined);
    expect(bodies).toHaveLength(1);
    return bodies[0];
  }

  it('store: false: the encrypted reasoning comes back on the turn that made the call', async () => {
    const body = await send({ store: false, reasoningOptions: { itemId: 'rs_1', reasoningEncryptedContent: 'enc-1' } });
    const { request, dropped } = translate(body);
    expect(request.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather in Paris? Here is the forecast.' },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0xLjQK', filename: 'forecast.pdf' } },
        ],
      },
      { role: 'assistant', content: 'Checking.', tool_calls: [weatherCall], thinking_blocks: PLAN },
      { role: 'tool', tool_call_id: 'call_w', content: '{"temperature":21}' },
    ]);
    expect(dropped).toEqual([]);
    expect(request.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'weather',
          description: 'Get the weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ]);
    expect(request.tool_choice).toBe('auto');
  });

  it('store: true (the default): earlier items go as item_reference, which the schema accepts for the caller to resolve', async () => {
    const body = (await send({ store: true, reasoningOptions: { itemId: 'rs_1' } })) as { input: unknown[] };
    const parsed = parseRequest(responsesRequestSchema, body);
    expect(inputItemsOf(parsed)).toContainEqual({ type: 'item_reference', id: 'rs_1' });
  });
});

describe('OpenAI Agents SDK', () => {
  it('replays items with their ids; tool outputs pair by call_id and rs_ ids restore reasoning', async () => {
    const { bodies, fetch } = capture();
    const client = new OpenAI({ apiKey: 'test-key', baseURL: BASE_URL, fetch, maxRetries: 0 });
    const agent = new Agent({
      name: 'Travel',
      instructions: 'You are a travel agent.',
      // The Agents SDK bundles its own copy of `openai`; the client is the same at runtime.
      model: new OpenAIResponsesModel(client as unknown as ConstructorParameters<typeof OpenAIResponsesModel>[0], 'gpt-5'),
      tools: [
        tool({ name: 'search_hotels', description: 'Search hotels', parameters: z.object({ city: z.string() }), execute: async () => 'none' }),
      ],
    });
    const history = [
      { type: 'message', role: 'user', content: 'Find me a hotel in Lisbon.' },
      { type: 'reasoning', id: 'rs_68a1', content: [{ type: 'input_text', text: 'Searching.' }] },
      { type: 'function_call', id: 'fc_68a2', callId: 'call_h1', name: 'search_hotels', arguments: '{"city":"Lisbon"}', status: 'completed' },
      { type: 'function_call_result', callId: 'call_h1', name: 'search_hotels', status: 'completed', output: { type: 'text', text: 'Hotel Alfama' } },
      { type: 'message', id: 'msg_68a4', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hotel Alfama has rooms.' }] },
      { type: 'message', role: 'user', content: 'Book it.' },
    ] as const;
    await new Runner({ tracingDisabled: true })
      .run(agent, history as unknown as Parameters<Runner['run']>[1])
      .catch(() => undefined);
    expect(bodies).toHaveLength(1);

    const { request } = translate(bodies[0]);
    expect(request.messages).toEqual([
      { role: 'system', content: 'You are a travel agent.' },
      { role: 'user', content: 'Find me a hotel in Lisbon.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_h1', type: 'function', function: { name: 'search_hotels', arguments: '{"city":"Lisbon"}' } }],
        thinking_blocks: PLAN,
      },
      { role: 'tool', tool_call_id: 'call_h1', content: 'Hotel Alfama' },
      { role: 'assistant', content: 'Hotel Alfama has rooms.' },
      { role: 'user', content: 'Book it.' },
    ]);
    expect(request.tools?.map((entry) => (entry.type === 'function' ? [entry.function.name, entry.function.strict] : []))).toEqual([
      ['search_hotels', true],
    ]);
  });
});
