/**
 * The PII redactor: which addresses and numbers it replaces, in requests
 * of every interface and in answers, and that hostile input costs bounded
 * time.
 */
import { describe, expect, it } from 'vitest';
import { findPii, piiRedactor } from '../../../../src/guards/builtin/pii-redactor.js';
import { runInputGuards, runOutputGuards } from '../../../../src/guards/run-guards.js';
import { chatCompletionRequestSchema } from '../../../../src/schemas/chat-request.js';
import { messagesRequestSchema } from '../../../../src/schemas/messages-request.js';
import { responsesRequestSchema } from '../../../../src/schemas/responses-request.js';
import { elapsedMs } from '../../../helpers/elapsed-ms.js';

const redact = (text: string) => {
  let out = '';
  let at = 0;
  for (const span of findPii(text, { email: '[EMAIL]', phone: '[PHONE]' })) {
    out += text.slice(at, span.start) + span.text;
    at = span.end;
  }
  return out + text.slice(at);
};

describe('what is redacted', () => {
  it.each([
    ['write to jane.doe+news@mail.example.com today', 'write to [EMAIL] today'],
    ['(jane_doe@example.io)', '([EMAIL])'],
    ['mail x@y.museum.', 'mail [EMAIL].'],
    ['call 555-123-4567 now', 'call [PHONE] now'],
    ['call (555) 123-4567', 'call [PHONE]'],
    ['call +44 20 7946 0958', 'call [PHONE]'],
    ['call +1 555 123 4567.', 'call [PHONE].'],
    ['555.123.4567', '[PHONE]'],
    ['5551234567', '[PHONE]'],
    ['a@b.io, 555-123-4567 and c@d.org', '[EMAIL], [PHONE] and [EMAIL]'],
    ['5551234567@example.com', '[EMAIL]'],
  ])('%s', (text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it.each([
    ['an @ mention', 'ask @support'],
    ['an address without a top-level domain', 'user@localhost'],
    ['a date', 'on 2024-01-15'],
    ['a large amount', 'costs 10.000.000 or 1,000,000'],
    ['a card-length number', '4111111111111111'],
    ['a version', 'v1.2.3'],
  ])('leaves %s alone', (_, text) => {
    expect(redact(text)).toBe(text);
  });
});

describe('on requests of every interface', () => {
  const guards = [piiRedactor()];

  it('chat: user, system and tool text', async () => {
    const body = chatCompletionRequestSchema.parse({
      model: 'm',
      messages: [
        { role: 'system', content: 'Support line 555-123-4567' },
        { role: 'user', content: [{ type: 'text', text: 'I am a@b.io' }] },
        { role: 'tool', tool_call_id: 'c', content: 'found c@d.org' },
      ],
    });
    const result = await runInputGuards({ guards, api: 'chat', body, principal: undefined });
    if (result.stop) throw new Error('stopped');
    expect(result.value.messages.map((m) => m.content)).toEqual([
      'Support line [PHONE]',
      [{ type: 'text', text: 'I am [EMAIL]' }],
      'found [EMAIL]',
    ]);
  });

  it('messages: system and tool results', async () => {
    const body = messagesRequestSchema.parse({
      model: 'm',
      max_tokens: 10,
      system: 'Reach us at help@corp.example',
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'phone +1 555 123 4567' }] }],
    });
    const result = await runInputGuards({ guards, api: 'messages', body, principal: undefined });
    if (result.stop) throw new Error('stopped');
    expect(result.value.system).toBe('Reach us at [EMAIL]');
    expect(result.value.messages[0]!.content).toEqual([{ type: 'tool_result', tool_use_id: 't', content: 'phone [PHONE]' }]);
  });

  it('responses: instructions, input and function output', async () => {
    const body = responsesRequestSchema.parse({
      model: 'm',
      instructions: 'escalate to boss@corp.example',
      input: [
        { role: 'user', content: 'my number is 555-123-4567' },
        { type: 'function_call_output', call_id: 'c', output: 'owner: x@y.io' },
      ],
    });
    const result = await runInputGuards({ guards, api: 'responses', body, principal: undefined });
    if (result.stop) throw new Error('stopped');
    expect(result.value.instructions).toBe('escalate to [EMAIL]');
    expect(result.value.input).toEqual([
      { role: 'user', content: 'my number is [PHONE]' },
      { type: 'function_call_output', call_id: 'c', output: 'owner: [EMAIL]' },
    ]);
  });

  it('answers, with custom placeholders', async () => {
    const result = await runOutputGuards({
      guards: [piiRedactor({ emailReplacement: '<e>', phoneReplacement: '<p>' })],
      channel: 'text',
      text: 'a@b.io or 555-123-4567',
      interface: 'responses',
      model: 'm',
      principal: undefined,
    });
    expect(result).toMatchObject({ value: '<e> or <p>' });
  });
});

describe('hostile input', () => {
  const MB = 1 << 20;
  it.each([
    ['one long run of address characters', 'a'.repeat(MB)],
    ['at signs without domains', 'a@'.repeat(MB / 2)],
    ['long local parts before each at sign', `${'b'.repeat(63)}@`.repeat(MB / 64)],
    ['domains of dots', `x@${'a.'.repeat(40)}`.repeat(MB / 82)],
    ['digit groups that never make a number', '123 456 '.repeat(MB / 8)],
    ['an endless number', '5'.repeat(MB)],
    ['plus signs and parentheses', '+1 (555) '.repeat(MB / 9)],
  ])('%s (1 MB) is scanned in bounded time', (_, text) => {
    const ms = elapsedMs(() => findPii(text, { email: 'e', phone: 'p' }));
    // Linear patterns take tens of ms for a megabyte; a backtracking blow-up takes seconds to forever.
    expect(ms).toBeLessThan(1_500);
  });
});
