/**
 * The guard view of Responses requests: instructions, input as a string or
 * items, tool outputs, and replacements written back there.
 */
import { describe, expect, it } from 'vitest';
import { applyResponsesReplacements, viewOfResponses } from '../../../src/guards/responses-input-view.js';
import { type ResponsesRequest, responsesRequestSchema } from '../../../src/schemas/responses-request.js';

const body: ResponsesRequest = responsesRequestSchema.parse({
  model: 'gpt-5',
  instructions: 'be brief',
  input: [
    { role: 'developer', content: 'dev string' },
    { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'sys part' }] },
    { role: 'user', content: [{ type: 'input_text', text: 'user part' }, { type: 'input_image', image_url: 'https://example.com/a.png' }] },
    { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'thought' }] },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'asst out' }, { type: 'refusal', refusal: 'asst refusal' }] },
    { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{"q":"x"}' },
    { type: 'function_call_output', call_id: 'c1', output: 'fn output' },
    { type: 'function_call_output', call_id: 'c2', output: [{ type: 'input_text', text: 'fn part' }] },
    { type: 'custom_tool_call_output', call_id: 'c3', output: 'custom output' },
    { type: 'item_reference', id: 'msg_1' },
    { role: 'user', content: 'user string' },
  ],
  tools: [
    { type: 'function', name: 'lookup', description: 'Looks up', parameters: { type: 'object' } },
    { type: 'custom', name: 'apply_patch', description: 'Patches' },
    { type: 'web_search' },
  ],
});

describe('viewOfResponses', () => {
  const { view } = viewOfResponses(body, { principal: 'p' });

  it('puts instructions, then system and developer messages, in system', () => {
    expect(view.system).toEqual([
      { id: 'instructions', text: 'be brief' },
      { id: 'input.0.content', text: 'dev string' },
      { id: 'input.1.content.0.text', text: 'sys part' },
    ]);
  });

  it('keeps user and assistant messages with their text parts; not reasoning', () => {
    expect(view.messages).toEqual([
      { role: 'user', parts: [{ id: 'input.2.content.0.text', text: 'user part' }] },
      {
        role: 'assistant',
        parts: [
          { id: 'input.4.content.0.text', text: 'asst out' },
          { id: 'input.4.content.1.refusal', text: 'asst refusal' },
        ],
      },
      { role: 'user', parts: [{ id: 'input.10.content', text: 'user string' }] },
    ]);
  });

  it('reports function and custom tool outputs as tool results', () => {
    expect(view.toolResults).toEqual([
      { callId: 'c1', parts: [{ id: 'input.6.output', text: 'fn output' }] },
      { callId: 'c2', parts: [{ id: 'input.7.output.0.text', text: 'fn part' }] },
      { callId: 'c3', parts: [{ id: 'input.8.output', text: 'custom output' }] },
    ]);
  });

  it('lists function, custom and built-in tools', () => {
    expect(view.tools).toEqual([
      { name: 'lookup', description: 'Looks up', parameters: { type: 'object' } },
      { name: 'apply_patch', description: 'Patches' },
      { name: 'web_search' },
    ]);
  });

  it('reads a string input as one user turn', () => {
    const plain = responsesRequestSchema.parse({ model: 'm', input: 'hello' });
    expect(viewOfResponses(plain).view.messages).toEqual([{ role: 'user', parts: [{ id: 'input', text: 'hello' }] }]);
  });
});

describe('applyResponsesReplacements', () => {
  it('rewrites every text location and leaves the original body as it was', () => {
    const before = structuredClone(body);
    const { view } = viewOfResponses(body);
    const all = [...view.system, ...view.messages.flatMap((m) => m.parts), ...view.toolResults.flatMap((r) => r.parts)];
    const next = applyResponsesReplacements(body, all.map((part) => ({ part: part.id, start: part.text.length, end: part.text.length, text: '!' })));
    expect(body).toEqual(before);
    expect(next.instructions).toBe('be brief!');
    const input = next.input as unknown as Record<string, unknown>[];
    expect(input[0]!.content).toBe('dev string!');
    expect(input[1]!.content).toEqual([{ type: 'input_text', text: 'sys part!' }]);
    expect(input[2]!.content).toEqual([{ type: 'input_text', text: 'user part!' }, { type: 'input_image', image_url: 'https://example.com/a.png' }]);
    expect(input[3]).toEqual(before.input![3]);
    expect(input[4]!.content).toEqual([{ type: 'output_text', text: 'asst out!' }, { type: 'refusal', refusal: 'asst refusal!' }]);
    expect(input[5]).toEqual(before.input![5]);
    expect(input[6]!.output).toBe('fn output!');
    expect(input[7]!.output).toEqual([{ type: 'input_text', text: 'fn part!' }]);
    expect(input[8]!.output).toBe('custom output!');
    expect(input[10]!.content).toBe('user string!');
    expect(responsesRequestSchema.safeParse(next).success).toBe(true);
  });

  it('rewrites a string input', () => {
    const plain = responsesRequestSchema.parse({ model: 'm', input: 'call 555-123-4567' });
    expect(applyResponsesReplacements(plain, [{ part: 'input', start: 5, end: 17, text: '[PHONE]' }]).input).toBe('call [PHONE]');
  });

  it('refuses to write into function-call arguments', () => {
    expect(() => applyResponsesReplacements(body, [{ part: 'input.5.arguments', start: 0, end: 1, text: 'x' }])).toThrow(/not a text part/);
  });
});
