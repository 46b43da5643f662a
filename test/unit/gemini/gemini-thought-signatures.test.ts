/**
 * Thought signatures through the chat interface: the id helpers carry a
 * sealed signature, the request translator restores it on the part it came
 * from (Google: "return signatures in the exact part where they were
 * received"; with parallel calls only the first call has one), and a call
 * turn without one gets Google's documented placeholder on Gemini 3.
 * Sealing is the gateway's reasoning seal, bound to principal and model.
 */
import { describe, expect, it } from 'vitest';
import { createReasoningSeal } from '../../../src/responses/reasoning-envelope.js';
import type { ChatCompletionRequest } from '../../../src/schemas/chat.js';
import { chatToGeminiRequest } from '../../../src/upstreams/gemini/chat-to-gemini-request.js';
import { makeToolCallId } from '../../../src/upstreams/gemini/thought-signature-carrier.js';

const reasoningSeal = createReasoningSeal('a-test-secret-of-enough-length-0123456789');
const alice = { principal: 'alice', model: 'gemini' };
const bob = { principal: 'bob', model: 'gemini' };
const seal = (signature: string, binding = alice) => reasoningSeal.seal([{ type: 'thinking', thinking: '', signature }], binding);
const openFor = (binding: typeof alice) => (text: string) => {
  const block = reasoningSeal.open(text, binding)?.[0];
  return block?.type === 'thinking' ? block.signature : undefined;
};

/** Gemini signatures are base64 bytes. */
const SIGNATURE_1 = Buffer.from('first step signature').toString('base64');
const SIGNATURE_2 = Buffer.from('second step signature').toString('base64');

function conversation(firstId: string, secondId: string, extra: Record<string, unknown> = {}): ChatCompletionRequest {
  return {
    model: 'gemini',
    messages: [
      { role: 'user', content: 'Weather in Paris and London?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: firstId, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: secondId, type: 'function', function: { name: 'get_weather', arguments: '{"city":"London"}' } },
        ],
        ...extra,
      },
      { role: 'tool', tool_call_id: secondId, content: '12C' },
      { role: 'tool', tool_call_id: firstId, content: '15C' },
    ],
  };
}

const modelTurn = (first: Record<string, unknown>, second: Record<string, unknown> = {}) => ({
  role: 'model',
  parts: [
    { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, ...first },
    { functionCall: { name: 'get_weather', args: { city: 'London' } }, ...second },
  ],
});

describe('thought signatures on chat', () => {
  it('restores the signature carried in the first call id on that call only, for the caller it was sealed for', () => {
    const first = makeToolCallId({ scope: 'resp-1', index: 0, signatureSeal: seal(SIGNATURE_1) });
    const second = makeToolCallId({ scope: 'resp-1', index: 1 });
    const { request, warnings } = chatToGeminiRequest(conversation(first, second), { model: 'gemini-3-flash-preview', openSignature: openFor(alice) });
    expect(request.contents[1]).toEqual(modelTurn({ thoughtSignature: SIGNATURE_1 }));
    expect(request.contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'get_weather', response: { output: '15C' } } },
        { functionResponse: { name: 'get_weather', response: { output: '12C' } } },
      ],
    });
    expect(warnings).toEqual([]);
  });

  it('restores the signatures of several steps, each on its own turn', () => {
    const step1 = makeToolCallId({ scope: 'resp-1', index: 0, signatureSeal: seal(SIGNATURE_1) });
    const step2 = makeToolCallId({ scope: 'resp-2', index: 0, signatureSeal: seal(SIGNATURE_2) });
    const { request } = chatToGeminiRequest(
      {
        model: 'gemini',
        messages: [
          { role: 'user', content: 'Book a taxi if flight AA100 is delayed.' },
          { role: 'assistant', content: null, tool_calls: [{ id: step1, type: 'function', function: { name: 'check_flight', arguments: '{"flight":"AA100"}' } }] },
          { role: 'tool', tool_call_id: step1, content: 'delayed' },
          { role: 'assistant', content: null, tool_calls: [{ id: step2, type: 'function', function: { name: 'book_taxi', arguments: '{"time":"10 AM"}' } }] },
          { role: 'tool', tool_call_id: step2, content: 'booked' },
        ],
      },
      { model: 'gemini-3-flash-preview', openSignature: openFor(alice) },
    );
    expect(request.contents[1]?.parts[0]?.thoughtSignature).toBe(SIGNATURE_1);
    expect(request.contents[3]?.parts[0]?.thoughtSignature).toBe(SIGNATURE_2);
  });

  it('does not restore a signature for another caller: the turn gets the placeholder and a warning', () => {
    const first = makeToolCallId({ scope: 'resp-1', index: 0, signatureSeal: seal(SIGNATURE_1) });
    const second = makeToolCallId({ scope: 'resp-1', index: 1 });
    const { request, warnings } = chatToGeminiRequest(conversation(first, second), { model: 'gemini-3-flash-preview', openSignature: openFor(bob) });
    expect(request.contents[1]).toEqual(modelTurn({ thoughtSignature: 'skip_thought_signature_validator' }));
    expect(warnings).toEqual([expect.stringMatching(/no thought signature/)]);
  });

  it('gives foreign call ids the placeholder on Gemini 3, and nothing on Gemini 2.5, which does not validate', () => {
    const on3 = chatToGeminiRequest(conversation('call_abc', 'call_def'), { model: 'gemini-3-pro-preview' });
    expect(on3.request.contents[1]).toEqual(modelTurn({ thoughtSignature: 'skip_thought_signature_validator' }));
    const on25 = chatToGeminiRequest(conversation('call_abc', 'call_def'), { model: 'gemini-2.5-flash' });
    expect(on25.request.contents[1]).toEqual(modelTurn({}));
    expect(on25.warnings).toEqual([]);
  });

  it('reads signatures from the thinking_blocks extension: onto the first call without one, else the last part', () => {
    const withBlocks = conversation('call_abc', 'call_def', { thinking_blocks: [{ type: 'thinking', thinking: 'summary', signature: seal(SIGNATURE_1) }] });
    const calls = chatToGeminiRequest(withBlocks, { model: 'gemini-3-flash-preview', openSignature: openFor(alice) });
    expect(calls.request.contents[1]).toEqual(modelTurn({ thoughtSignature: SIGNATURE_1 }));
    expect(calls.warnings).toEqual([]);

    const textOnly = chatToGeminiRequest(
      {
        model: 'gemini',
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello', thinking_blocks: [{ type: 'thinking', thinking: '', signature: seal(SIGNATURE_2) }] } as ChatCompletionRequest['messages'][number],
          { role: 'user', content: 'Again' },
        ],
      },
      { model: 'gemini-3-flash-preview', openSignature: openFor(alice) },
    );
    expect(textOnly.request.contents[1]).toEqual({ role: 'model', parts: [{ text: 'Hello', thoughtSignature: SIGNATURE_2 }] });
  });

  it('does not place the same signature twice when both the id and a thinking block carry it', () => {
    const sealed = seal(SIGNATURE_1);
    const first = makeToolCallId({ scope: 'r', index: 0, signatureSeal: sealed });
    const second = makeToolCallId({ scope: 'r', index: 1 });
    const { request } = chatToGeminiRequest(conversation(first, second, { thinking_blocks: [{ type: 'thinking', thinking: '', signature: sealed }] }), {
      model: 'gemini-3-flash-preview',
      openSignature: openFor(alice),
    });
    expect(request.contents[1]).toEqual(modelTurn({ thoughtSignature: SIGNATURE_1 }));
  });
});
