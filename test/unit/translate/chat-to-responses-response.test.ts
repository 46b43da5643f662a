import { describe, expect, it } from 'vitest';
import { createReasoningSeal } from '../../../src/responses/reasoning-envelope.js';
import { clientView } from '../../../src/responses/response-object.js';
import type { ChatCompletion, MessagesResponse } from '../../../src/schemas/index.js';
import { chatToResponsesResponse } from '../../../src/translate/chat-to-responses-response.js';
import { messagesToResponsesResponse } from '../../../src/translate/messages-to-responses-response.js';
import type { ResponseAnswerOptions } from '../../../src/translate/responses-output.js';

const ID = 'resp_00112233445566778899aabbccddeeff';

function options(overrides: Partial<ResponseAnswerOptions> = {}): ResponseAnswerOptions {
  return {
    id: ID,
    createdAt: 1_700_000_000,
    model: 'client-model',
    request: {},
    customTools: new Set(),
    includeEncrypted: false,
    seal: (blocks) => `sealed:${JSON.stringify(blocks)}`,
    now: () => 1_700_000_005,
    ...overrides,
  };
}

const completion = (message: Record<string, unknown>, finish: ChatCompletion['choices'][number]['finish_reason'] = 'stop', usage?: ChatCompletion['usage']): ChatCompletion => ({
  id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'up',
  choices: [{ index: 0, finish_reason: finish, logprobs: null, message: { role: 'assistant', content: null, refusal: null, ...message } }],
  ...(usage ? { usage } : {}),
});

describe('chatToResponsesResponse', () => {
  it('orders reasoning items, the message, then calls; echoes the request; usage complete', () => {
    const thinking = { type: 'thinking', thinking: 'Plan.', signature: 'SIG' } as const;
    const redacted = { type: 'redacted_thinking', data: 'ENC' } as const;
    const response = chatToResponsesResponse(
      completion(
        {
          content: 'Calling.',
          reasoning_content: 'Plan.',
          thinking_blocks: [thinking, redacted],
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } },
            { id: 'call_2', type: 'function', function: { name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' } },
          ],
        },
        'tool_calls',
        { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29, prompt_tokens_details: { cached_tokens: 8 }, completion_tokens_details: { reasoning_tokens: 4 } },
      ),
      options({ customTools: new Set(['apply_patch']), request: { instructions: 'Be terse.', max_output_tokens: 500, metadata: { a: 'b' }, previous_response_id: 'resp_prev', store: true } }),
    );
    expect(response.output).toEqual([
      { id: expect.stringMatching(/^rs_[0-9a-f]{32,}$/), type: 'reasoning', summary: [{ type: 'summary_text', text: 'Plan.' }], encrypted_content: `sealed:${JSON.stringify([thinking])}` },
      { id: expect.stringMatching(/^rs_/), type: 'reasoning', summary: [], encrypted_content: `sealed:${JSON.stringify([redacted])}` },
      { id: expect.stringMatching(/^msg_/), type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Calling.', annotations: [], logprobs: [] }] },
      { id: expect.stringMatching(/^fc_/), type: 'function_call', status: 'completed', call_id: 'call_1', name: 'lookup', arguments: '{"q":"x"}' },
      { id: expect.stringMatching(/^ctc_/), type: 'custom_tool_call', status: 'completed', call_id: 'call_2', name: 'apply_patch', input: '*** Begin Patch' },
    ]);
    expect(response).toMatchObject({
      id: ID, object: 'response', created_at: 1_700_000_000, completed_at: 1_700_000_005, status: 'completed', error: null, incomplete_details: null,
      instructions: 'Be terse.', model: 'client-model', max_output_tokens: 500, metadata: { a: 'b' }, previous_response_id: 'resp_prev', store: true,
      temperature: null, top_p: null, user: null, service_tier: null, reasoning: null, tools: [], tool_choice: 'auto', parallel_tool_calls: true, truncation: 'disabled',
    });
    expect(response.usage).toEqual({ input_tokens: 20, input_tokens_details: { cached_tokens: 8 }, output_tokens: 9, output_tokens_details: { reasoning_tokens: 4 }, total_tokens: 29 });
  });

  it('clientView hides encrypted_content unless included; the stored view keeps it', () => {
    const response = chatToResponsesResponse(completion({ content: 'x', thinking_blocks: [{ type: 'thinking', thinking: 't', signature: 's' }] }), options());
    expect(response.output[0]).toMatchObject({ encrypted_content: expect.stringMatching(/^sealed:/) });
    expect(clientView(response, false).output[0]).toMatchObject({ type: 'reasoning', encrypted_content: null });
    expect(clientView(response, true)).toBe(response);
    expect(response.output[0]).toMatchObject({ encrypted_content: expect.stringMatching(/^sealed:/) });
  });

  it('reasoning_content alone (a chat upstream) is one unsigned reasoning item', () => {
    const response = chatToResponsesResponse(completion({ content: 'Hi', reasoning_content: 'why' }), options());
    expect(response.output[0]).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'why' }], encrypted_content: null });
  });

  it('a custom tool call whose arguments are not {input} keeps the raw arguments', () => {
    const response = chatToResponsesResponse(
      completion({ tool_calls: [{ id: 'c', type: 'function', function: { name: 'shell', arguments: 'ls -la' } }] }, 'tool_calls'),
      options({ customTools: new Set(['shell']) }),
    );
    expect(response.output).toEqual([expect.objectContaining({ type: 'custom_tool_call', input: 'ls -la' })]);
  });

  it('length → incomplete (max_output_tokens); content_filter → incomplete (content_filter); missing usage → zeros', () => {
    const cut = chatToResponsesResponse(completion({ content: 'Once' }, 'length'), options());
    expect(cut).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, completed_at: null });
    expect(cut.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
    expect(cut.usage).toEqual({ input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 });
    expect(chatToResponsesResponse(completion({ content: 'x' }, 'content_filter'), options())).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'content_filter' } });
  });

  it('a refusal is a refusal part; an empty answer is one empty message', () => {
    expect(chatToResponsesResponse(completion({ refusal: 'No.' }), options()).output).toEqual([expect.objectContaining({ content: [{ type: 'refusal', refusal: 'No.' }] })]);
    expect(chatToResponsesResponse(completion({}), options()).output).toEqual([
      expect.objectContaining({ type: 'message', content: [{ type: 'output_text', text: '', annotations: [], logprobs: [] }] }),
    ]);
  });
});

describe('messagesToResponsesResponse', () => {
  it('signed thinking becomes a reasoning item whose envelope opens to the same block', () => {
    const seal = createReasoningSeal('k');
    const message: MessagesResponse = {
      id: 'msg_up', type: 'message', role: 'assistant', model: 'upstream', stop_reason: 'end_turn', stop_sequence: null,
      content: [
        { type: 'thinking', thinking: 'Line 1\nLine 2 ✓', signature: 'EsECCokB+/=' },
        { type: 'text', text: 'Done.' },
      ],
      usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 3 },
    };
    const response = messagesToResponsesResponse(message, options({ seal: (blocks) => seal.seal(blocks, { principal: 'p', model: 'vendora-x' }) }));
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    const reasoning = response.output[0] as { encrypted_content: string; summary: unknown };
    expect(reasoning.summary).toEqual([{ type: 'summary_text', text: 'Line 1\nLine 2 ✓' }]);
    expect(seal.open(reasoning.encrypted_content, { principal: 'p', model: 'vendora-x' })).toEqual([{ type: 'thinking', thinking: 'Line 1\nLine 2 ✓', signature: 'EsECCokB+/=' }]);
    expect(response.usage).toEqual({ input_tokens: 13, input_tokens_details: { cached_tokens: 3 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 18 });
  });
});
