/**
 * The guard view of chat-completions requests: every text the upstream
 * reads is one part, in body order, and replacements land exactly there.
 */
import { describe, expect, it } from 'vitest';
import { applyChatReplacements, viewOfChat } from '../../../src/guards/chat-input-view.js';
import { GuardDecisionError } from '../../../src/guards/guard-decision-error.js';
import { type ChatCompletionRequest, chatCompletionRequestSchema } from '../../../src/schemas/chat-request.js';

const body: ChatCompletionRequest = chatCompletionRequestSchema.parse({
  model: 'gpt-4o',
  messages: [
    { role: 'system', content: 'sys string' },
    { role: 'developer', content: [{ type: 'text', text: 'dev part' }] },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'user part one' },
        { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
        { type: 'text', text: 'user part two' },
      ],
    },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"q":"x"}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: 'tool string' },
    { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'tool part' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'asst part' }, { type: 'refusal', refusal: 'asst refusal part' }], refusal: 'asst refusal' },
    { role: 'function', name: 'legacy_fn', content: 'legacy output' },
    { role: 'user', content: 'user string' },
  ],
  tools: [
    { type: 'function', function: { name: 'lookup', description: 'Looks up', parameters: { type: 'object' } } },
    { type: 'custom', custom: { name: 'apply_patch' } },
  ],
  functions: [{ name: 'old_fn' }],
});

describe('viewOfChat', () => {
  const { view } = viewOfChat(body, { principal: 'team-a' });

  it('names the interface, model and principal', () => {
    expect([view.interface, view.model, view.principal]).toEqual(['chat', 'gpt-4o', 'team-a']);
  });

  it('puts system and developer text in system, in order', () => {
    expect(view.system).toEqual([
      { id: 'messages.0.content', text: 'sys string' },
      { id: 'messages.1.content.0.text', text: 'dev part' },
    ]);
  });

  it('keeps each user and assistant turn, with only its text parts', () => {
    expect(view.messages).toEqual([
      {
        role: 'user',
        parts: [
          { id: 'messages.2.content.0.text', text: 'user part one' },
          { id: 'messages.2.content.2.text', text: 'user part two' },
        ],
      },
      { role: 'assistant', parts: [] },
      {
        role: 'assistant',
        parts: [
          { id: 'messages.6.content.0.text', text: 'asst part' },
          { id: 'messages.6.content.1.refusal', text: 'asst refusal part' },
          { id: 'messages.6.refusal', text: 'asst refusal' },
        ],
      },
      { role: 'user', parts: [{ id: 'messages.8.content', text: 'user string' }] },
    ]);
  });

  it('reports tool and legacy function messages as tool results', () => {
    expect(view.toolResults).toEqual([
      { callId: 'call_1', parts: [{ id: 'messages.4.content', text: 'tool string' }] },
      { callId: 'call_2', parts: [{ id: 'messages.5.content.0.text', text: 'tool part' }] },
      { callId: 'legacy_fn', parts: [{ id: 'messages.7.content', text: 'legacy output' }] },
    ]);
  });

  it('lists function, custom and legacy tools', () => {
    expect(view.tools).toEqual([
      { name: 'lookup', description: 'Looks up', parameters: { type: 'object' } },
      { name: 'apply_patch' },
      { name: 'old_fn' },
    ]);
  });
});

describe('applyChatReplacements', () => {
  it('rewrites every text location and leaves the original body as it was', () => {
    const before = structuredClone(body);
    const { view } = viewOfChat(body);
    const all = [...view.system, ...view.messages.flatMap((m) => m.parts), ...view.toolResults.flatMap((r) => r.parts)];
    // Replace the first character of every part with "#".
    const next = applyChatReplacements(body, all.map((part) => ({ part: part.id, start: 0, end: 1, text: '#' })));
    expect(body).toEqual(before);
    const messages = next.messages as unknown as Record<string, unknown>[];
    expect(messages[0]!.content).toBe('#ys string');
    expect(messages[1]!.content).toEqual([{ type: 'text', text: '#ev part' }]);
    expect(messages[2]!.content).toEqual([
      { type: 'text', text: '#ser part one' },
      { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
      { type: 'text', text: '#ser part two' },
    ]);
    expect(messages[4]!.content).toBe('#ool string');
    expect(messages[5]!.content).toEqual([{ type: 'text', text: '#ool part' }]);
    expect(messages[6]!.content).toEqual([
      { type: 'text', text: '#sst part' },
      { type: 'refusal', refusal: '#sst refusal part' },
    ]);
    expect(messages[6]!.refusal).toBe('#sst refusal');
    expect(messages[7]!.content).toBe('#egacy output');
    expect(messages[8]!.content).toBe('#ser string');
    // Untouched fields come through unchanged.
    expect(messages[3]).toEqual(before.messages[3]);
    expect(next.tools).toEqual(before.tools);
    expect(chatCompletionRequestSchema.safeParse(next).success).toBe(true);
  });

  it('applies several spans in one part, an insertion and a deletion', () => {
    const content = 'mail a@b.io or call 555-123-4567';
    const one = chatCompletionRequestSchema.parse({ model: 'm', messages: [{ role: 'user', content }] });
    const phone = content.indexOf('555');
    const email = content.indexOf('a@b.io');
    const next = applyChatReplacements(one, [
      { part: 'messages.0.content', start: phone, end: phone + '555-123-4567'.length, text: 'X' },
      { part: 'messages.0.content', start: 0, end: 0, text: '> ' },
      { part: 'messages.0.content', start: email, end: email + 'a@b.io '.length, text: '' },
    ]);
    expect(next.messages[0]!.content).toBe('> mail or call X');
  });

  it('returns the same body for no replacements', () => {
    expect(applyChatReplacements(body, [])).toBe(body);
  });

  it('refuses a part that is not a text location, such as the model or tool-call arguments', () => {
    expect(() => applyChatReplacements(body, [{ part: 'model', start: 0, end: 1, text: 'x' }])).toThrow(GuardDecisionError);
    expect(() =>
      applyChatReplacements(body, [{ part: 'messages.3.tool_calls.0.function.arguments', start: 0, end: 1, text: 'x' }]),
    ).toThrow(/not a text part/);
  });
});
