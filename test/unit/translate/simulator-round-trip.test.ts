/**
 * Translated requests against the simulator's messages face, on all twelve
 * models: the simulator enforces the model matrix's rules (thinking mode,
 * budgets, temperature), so a 200 here means the translation picked the
 * form each model accepts; the answers then translate back into chat
 * completions the schemas accept.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CATALOG } from '../../../src/models/catalog.js';
import {
  type MessagesResponse,
  chatCompletionRequestSchema,
  chatCompletionResponseSchema,
} from '../../../src/schemas/index.js';
import { createSimulator } from '../../../src/simulator/index.js';
import { chatToMessagesRequest } from '../../../src/translate/chat-to-messages-request.js';
import { messagesToChatResponse } from '../../../src/translate/messages-to-chat-response.js';
import { SPEC_MATRIX } from '../models/spec-matrix.js';

const simulator = createSimulator();

async function send(body: unknown): Promise<{ status: number; json: unknown }> {
  const response = await simulator.upstreams.messages.send({ operation: 'messages', body, headers: {}, signal: new AbortController().signal });
  let text = '';
  for await (const chunk of response.body) text += new TextDecoder().decode(chunk);
  return { status: response.status, json: JSON.parse(text) };
}

const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }];

// Which models think comes from the hand-typed SPEC matrix; the catalog entry is only the translator's input.
describe.each(SPEC_MATRIX.map((row) => [row.id, row] as const))('%s through the simulator', (id, row) => {
  const model = DEFAULT_CATALOG.get(id);
  it('a tool round trip with reasoning_effort (where the model thinks) is accepted and translates back', async () => {
    const chat = chatCompletionRequestSchema.parse({
      model: id,
      messages: [
        { role: 'system', content: 'You are a weather assistant.' },
        { role: 'user', content: 'What is the weather in Paris? Use get_weather.' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '18°C and sunny' },
      ],
      tools,
      ...(row.thinking === 'none' ? {} : { reasoning_effort: 'low' }),
    });
    const { request } = chatToMessagesRequest(chat, { model, upstreamModel: id });
    const { status, json } = await send(request);
    expect(status, JSON.stringify(json)).toBe(200);
    const completion = chatCompletionResponseSchema.parse(messagesToChatResponse(json as MessagesResponse, { model: id }));
    expect(completion.choices[0]?.message.content).toMatch(/18°C/);
    expect(completion.choices[0]?.finish_reason).toBe('stop');
  });

  it('json_object gives content that parses as a JSON object', async () => {
    const chat = chatCompletionRequestSchema.parse({ model: id, messages: [{ role: 'user', content: 'Describe Paris as JSON.' }], response_format: { type: 'json_object' } });
    const { request } = chatToMessagesRequest(chat, { model, upstreamModel: id });
    const { status, json } = await send(request);
    expect(status).toBe(200);
    const content = messagesToChatResponse(json as MessagesResponse, { model: id }).choices[0]?.message.content ?? '';
    const parsed: unknown = JSON.parse(content);
    expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)).toBe(true);
  });
});
